package dev.hookfan.deadletters;

import io.smallrye.mutiny.Uni;

import java.util.List;
import java.util.function.Predicate;

/** The dead-letter queue, for operators. Implemented by the messaging adapter. */
public interface DeadLetterQueue {

    /** The first messages, in queue order, left in the queue as they were. */
    Uni<List<DeadLetter>> peek(int limit);

    /**
     * Moves the chosen messages back to the work queue with their message id, body and properties and a fresh attempt
     * count, each confirmed by the broker before it leaves the dead-letter queue; the others stay, in order. Answers
     * how many were moved.
     */
    Uni<Integer> redrive(Predicate<DeadLetter> chosen);
}
