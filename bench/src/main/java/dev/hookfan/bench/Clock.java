package dev.hookfan.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Wall-clock microseconds: the one clock the benchmark, the service and PostgreSQL share on one machine. */
final class Clock {

    private Clock() {
    }

    static long micros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
