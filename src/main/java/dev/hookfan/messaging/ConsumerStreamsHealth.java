package dev.hookfan.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/** Down, for readiness and liveness, once a consumer's stream has ended: only a restart brings the consumer back. */
@Liveness
@Readiness
@ApplicationScoped
public class ConsumerStreamsHealth implements HealthCheck {

    private final ConsumerStreams streams;

    ConsumerStreamsHealth(ConsumerStreams streams) {
        this.streams = streams;
    }

    @Override
    public HealthCheckResponse call() {
        var ended = streams.ended();
        HealthCheckResponseBuilder response = HealthCheckResponse.named("Hookfan consumer streams").status(ended.isEmpty());
        ended.forEach(response::withData);
        return response.build();
    }
}
