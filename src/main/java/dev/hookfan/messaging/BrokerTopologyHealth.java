package dev.hookfan.messaging;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Not ready until the retry tiers, DLQ and deliveries queue exist: before that no failure could be parked. */
@Readiness
@ApplicationScoped
public class BrokerTopologyHealth implements HealthCheck {

    private final BrokerTopology topology;

    BrokerTopologyHealth(BrokerTopology topology) {
        this.topology = topology;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("Hookfan broker topology").status(topology.isDeclared()).build();
    }
}
