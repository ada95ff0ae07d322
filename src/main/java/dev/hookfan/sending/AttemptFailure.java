package dev.hookfan.sending;

/** Why an attempt failed: an answer that is neither a success nor 410 Gone, or no answer at all. */
sealed interface AttemptFailure {

    /** What the delivery shows as its last error. */
    String describe();

    /** The answer's status class ("5xx"…), or "error" when there was none. */
    String statusClass();

    /** The subscriber answered, with this status and the start of this body (null when empty). */
    record Answered(int status, String body) implements AttemptFailure {

        @Override
        public String describe() {
            return "HTTP " + status + (status >= 300 && status < 400 ? " (redirects are not followed)" : "");
        }

        @Override
        public String statusClass() {
            return status / 100 + "xx";
        }
    }

    /** Not sent (refused address, no signing secret, event missing) or no complete answer in time. */
    record Unanswered(String error) implements AttemptFailure {

        @Override
        public String describe() {
            return error;
        }

        @Override
        public String statusClass() {
            return "error";
        }
    }
}
