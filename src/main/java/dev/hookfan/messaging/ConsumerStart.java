package dev.hookfan.messaging;

import dev.hookfan.deliveries.DeliveryConfig;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.ChannelRegistry;
import io.smallrye.reactive.messaging.PausableChannel;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;

/**
 * Subscribes the consumers only once the broker has answered (the topology is declared). The consumers reconnect
 * through the Java client, which never retries a first connection that failed: started too early, against a
 * broker not up yet, they would stay disconnected for good.
 */
@ApplicationScoped
class ConsumerStart {

    private static final Logger LOG = Logger.getLogger(ConsumerStart.class);
    static final String EVENTS = "integration-events";
    static final String DELIVERIES = "deliveries";

    private final BrokerTopology topology;
    private final ChannelRegistry channels;
    private final MessagingConfig config;
    private final DeliveryConfig delivery;

    ConsumerStart(BrokerTopology topology, ChannelRegistry channels, MessagingConfig config, DeliveryConfig delivery) {
        this.topology = topology;
        this.channels = channels;
        this.config = config;
        this.delivery = delivery;
    }

    void startWhenTheBrokerAnswers(@Observes StartupEvent event) {
        topology.ready().subscribe().with(ignored -> resume(), failure -> LOG.errorf(
                "Consumers not started: the broker topology could not be declared: %s", failure.toString()));
    }

    private void resume() {
        for (String name : consumerChannels()) {
            PausableChannel channel = channels.getPausable(name);
            if (channel == null) {
                throw new IllegalStateException("Channel " + name + " is not pausable: check its pausable.* settings");
            }
            channel.resume();
        }
        LOG.infof("Consumers started: %s", consumerChannels());
    }

    List<String> consumerChannels() {
        List<String> names = new ArrayList<>(copies(EVENTS, config.concurrency()));
        // One consumer of delivery requests, which handles hookfan.delivery.request-concurrency of them at once;
        // an ingest-only instance leaves them to the instances that send.
        if (delivery.sendingEnabled()) {
            names.add(DELIVERIES);
        }
        return names;
    }

    /** A channel with concurrency N is N copies named channel$1 … channel$N. */
    private static List<String> copies(String channel, int concurrency) {
        if (concurrency <= 1) {
            return List.of(channel);
        }
        List<String> names = new ArrayList<>();
        for (int copy = 1; copy <= concurrency; copy++) {
            names.add(channel + "$" + copy);
        }
        return names;
    }
}
