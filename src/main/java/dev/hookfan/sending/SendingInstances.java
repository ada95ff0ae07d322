package dev.hookfan.sending;

/**
 * How many instances are sending, so a webhook's rate is split between them: each sends at most its share. The
 * fast path spreads a webhook's requests over the instances evenly, so the shares add up to the rate.
 */
public interface SendingInstances {

    /** At least 1. */
    int count();
}
