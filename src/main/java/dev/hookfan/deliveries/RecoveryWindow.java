package dev.hookfan.deliveries;

import java.time.Instant;

/** The creation times, [since, until), of the failed deliveries a bulk recovery sends again. */
record RecoveryWindow(Instant since, Instant until) {
}
