package dev.hookfan.messaging;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.ConnectionFactory;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.core.Context;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.rabbitmq.RabbitMQClient;
import io.vertx.rabbitmq.RabbitMQOptions;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Declares the queues the connector does not: one retry tier per distinct pause (TTL, then dead-lettered
 * back to the work queue), the DLQ (always classic) and the deliveries queue. Uses the connector's own connection settings,
 * so another vhost or cluster works end to end.
 */
@Singleton
public class BrokerTopology {

    private static final Logger LOG = Logger.getLogger(BrokerTopology.class);

    private final MessagingConfig config;
    private final RetrySchedule schedule;
    private final Vertx vertx;
    private final RabbitMQOptions options;
    private final CompletableFuture<Void> declared = new CompletableFuture<>();
    private final List<Address> brokers;
    private final String username;
    private final String password;
    private final String virtualHost;
    private final boolean ssl;
    private final boolean trustAll;
    private final Optional<String> trustStorePath;
    private final Optional<String> trustStorePassword;

    BrokerTopology(MessagingConfig config, Vertx vertx,
                   @ConfigProperty(name = "rabbitmq-host") Optional<String> host,
                   @ConfigProperty(name = "rabbitmq-port") Optional<Integer> port,
                   @ConfigProperty(name = "rabbitmq-addresses") Optional<String> addresses,
                   @ConfigProperty(name = "rabbitmq-username") Optional<String> username,
                   @ConfigProperty(name = "rabbitmq-password") Optional<String> password,
                   @ConfigProperty(name = "rabbitmq-virtual-host") Optional<String> virtualHost,
                   @ConfigProperty(name = "rabbitmq-ssl") Optional<Boolean> ssl,
                   @ConfigProperty(name = "rabbitmq-trust-all") Optional<Boolean> trustAll,
                   @ConfigProperty(name = "rabbitmq-trust-store-path") Optional<String> trustStorePath,
                   @ConfigProperty(name = "rabbitmq-trust-store-password") Optional<String> trustStorePassword) {
        this.config = config;
        this.schedule = RetrySchedule.of(config.retry());
        // Renamed: an operator who still sets the old name would otherwise get the default without a word.
        org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getOptionalValue("hookfan.messaging.recovery-interval-ms", String.class)
                .ifPresent(old -> LOG.warnf("hookfan.messaging.recovery-interval-ms (%s) is no longer read: set"
                        + " hookfan.messaging.reconnect-interval-ms", old));
        this.vertx = vertx;
        // Unset, the connector uses the AMQP client's defaults: so do these, by the client's own constants.
        this.brokers = addresses.map(list -> Arrays.asList(Address.parseAddresses(list)))
                .orElseGet(() -> List.of(new Address(host.orElse(ConnectionFactory.DEFAULT_HOST),
                        port.orElse(ConnectionFactory.DEFAULT_AMQP_PORT))));
        this.username = username.orElse(ConnectionFactory.DEFAULT_USER);
        this.password = password.orElse(ConnectionFactory.DEFAULT_PASS);
        this.virtualHost = virtualHost.orElse(ConnectionFactory.DEFAULT_VHOST);
        this.ssl = ssl.orElse(false);
        this.trustAll = trustAll.orElse(false);
        this.trustStorePath = trustStorePath;
        this.trustStorePassword = trustStorePassword;
        this.options = new RabbitMQOptions()
                .setConnectionName("hookfan (topology)")
                .setAddresses(brokers)
                .setUser(this.username)
                .setPassword(this.password)
                .setVirtualHost(this.virtualHost)
                .setSsl(this.ssl)
                .setTrustAll(this.trustAll)
                .setReconnectAttempts(0);
        trustStorePath.ifPresent(path -> {
            io.vertx.core.net.JksOptions trustStore = new io.vertx.core.net.JksOptions().setPath(path);
            trustStorePassword.ifPresent(trustStore::setPassword);
            options.setTrustStoreOptions(trustStore);
        });
    }

    void declareAtStartup(@Observes StartupEvent event) {
        declare()
                .onFailure().invoke(failure -> LOG.warnf("Broker topology not declared yet, retrying: %s", failure.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(500), Duration.ofSeconds(10)).indefinitely()
                .subscribe().with(ignored -> declared.complete(null), declared::completeExceptionally);
    }

    /** A queue went missing (deleted by hand or by a policy): declares them all again, in the background. */
    public void redeclare() {
        declare().subscribe().with(ignored -> { }, failure -> LOG.warnf("Broker topology not declared again: %s", failure.toString()));
    }

    /** The same brokers, user and TLS settings, for the Java client's own connections. */
    ConnectionFactory connectionFactory() throws GeneralSecurityException, IOException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUsername(username);
        factory.setPassword(password);
        factory.setVirtualHost(virtualHost);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setConnectionTimeout(5000);
        if (ssl && trustAll) {
            factory.useSslProtocol();
        } else if (ssl) {
            factory.useSslProtocol(sslContext());
            factory.enableHostnameVerification();
        }
        return factory;
    }

    List<Address> addresses() {
        return brokers;
    }

    private SSLContext sslContext() throws GeneralSecurityException, IOException {
        if (trustStorePath.isEmpty()) {
            return SSLContext.getDefault();
        }
        KeyStore trustStore = KeyStore.getInstance("JKS");
        try (InputStream in = Files.newInputStream(Path.of(trustStorePath.get()))) {
            trustStore.load(in, trustStorePassword.map(String::toCharArray).orElse(null));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trustStore);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** Completes on the caller's Vert.x context once the tiers exist, so no copy is ever routed to nowhere. */
    public Uni<Void> ready() {
        if (declared.isDone() && !declared.isCompletedExceptionally()) {
            return Uni.createFrom().voidItem();
        }
        Uni<Void> waiting = Uni.createFrom().completionStage(declared);
        Context caller = Vertx.currentContext();
        return caller == null ? waiting : waiting.emitOn(caller::runOnContext);
    }

    public boolean isDeclared() {
        return declared.isDone() && !declared.isCompletedExceptionally();
    }

    public String tierQueue(Duration pause) {
        return config.queue() + ".retry." + pause.toMillis() + "ms";
    }

    public String deadLetterQueue() {
        return config.deadLetterQueue();
    }

    public RetrySchedule schedule() {
        return schedule;
    }

    /** How many consumers the deliveries queue has: one per sending instance. Declares it as at start (idempotent). */
    public Uni<Integer> deliveriesConsumers() {
        return Uni.createFrom().deferred(() -> {
            RabbitMQClient client = RabbitMQClient.create(vertx, options);
            return client.start()
                    .chain(() -> client.queueDeclare(config.deliveriesQueue(), true, false, false, queueTypeArguments()))
                    .map(declared -> declared.getConsumerCount())
                    .eventually(client::stop);
        });
    }

    private Uni<Void> declare() {
        return Uni.createFrom().deferred(() -> {
            RabbitMQClient client = RabbitMQClient.create(vertx, options);
            return client.start()
                    .chain(() -> declareQueues(client))
                    .eventually(client::stop);
        });
    }

    private Uni<Void> declareQueues(RabbitMQClient client) {
        Uni<Void> tiers = Multi.createFrom().iterable(schedule.distinctPauses())
                .onItem().transformToUniAndConcatenate(pause -> client
                        .queueDeclare(tierQueue(pause), true, false, false, tierArguments(pause)))
                .collect().last().replaceWithVoid();
        return tiers
                .chain(() -> client.queueDeclare(config.deadLetterQueue(), true, false, false, deadLetterArguments())
                        .onFailure(refused -> String.valueOf(refused.getMessage()).contains("PRECONDITION_FAILED"))
                        .transform(refused -> new IllegalStateException("the dead-letter queue " + config.deadLetterQueue()
                                + " exists with other arguments; it must be a classic queue (docs/operations.md, Dead letters):"
                                + " name a new one in hookfan.messaging.dead-letter-queue and the old one in"
                                + " hookfan.messaging.former-dead-letter-queue, whose messages are then moved into it", refused)))
                .chain(() -> client.queueDeclare(config.deliveriesQueue(), true, false, false, queueTypeArguments()))
                .invoke(() -> LOG.infof("Broker topology ready: tiers %s, DLQ %s, deliveries %s",
                        schedule.distinctPauses(), config.deadLetterQueue(), config.deliveriesQueue()))
                .replaceWithVoid();
    }

    private JsonObject tierArguments(Duration pause) {
        JsonObject arguments = queueTypeArguments()
                .put("x-message-ttl", pause.toMillis())
                .put("x-dead-letter-exchange", "")
                .put("x-dead-letter-routing-key", config.queue());
        if (config.queueType() == MessagingConfig.QueueType.quorum) {
            // Quorum queues dead-letter at most once unless told otherwise; a retry must not vanish.
            arguments.put("x-dead-letter-strategy", "at-least-once").put("x-overflow", "reject-publish");
        }
        return arguments;
    }

    /** Classic whatever the other queues are: a quorum queue counts every look as a delivery (docs/design.md). */
    private static JsonObject deadLetterArguments() {
        return new JsonObject().put("x-queue-type", MessagingConfig.QueueType.classic.name());
    }

    private JsonObject queueTypeArguments() {
        return new JsonObject().put("x-queue-type", config.queueType().name());
    }
}
