package dev.hookfan.events;

/** A message that no retry can fix: it goes to the dead-letter queue at once. */
public class MalformedEventException extends RuntimeException {
    public MalformedEventException(String reason) {
        super(reason);
    }
}
