package dev.hookfan.webhooks;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * LISTENs on the channel the webhook tables' triggers notify and drops the changed organization's cached
 * webhooks. Its own connection, with TCP keepalive and the datasource's TLS settings. The connection is proven alive by
 * a heartbeat NOTIFY every {@code listener-heartbeat}: one that has heard none for 2.5 periods (dropped without a word,
 * or a first connection that never came up) turns the cache off and is replaced by a new one, which empties the cache.
 */
@ApplicationScoped
public class WebhookChangeListener {

    static final String CHANNEL = "hookfan_webhook_changes";
    static final String HEARTBEAT_CHANNEL = "hookfan_webhook_listener_heartbeat";
    private static final String HEARTBEAT = "select pg_notify($1, 'beat')";
    private static final Logger LOG = Logger.getLogger(WebhookChangeListener.class);

    private final WebhookDirectory directory;
    private final Vertx vertx;
    private final Pool pool;
    private final PgConnectOptions options;
    private final long heartbeatMillis;
    private final long silenceNanos;
    private volatile PgSubscriber subscriber;
    private volatile long heardAtNanos = System.nanoTime();
    private volatile long connectedAtNanos;
    private long timer = -1;

    WebhookChangeListener(WebhookDirectory directory, Vertx vertx, Pool pool, WebhooksConfig config,
                          @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                          @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
                          @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password,
                          @ConfigProperty(name = "quarkus.datasource.reactive.postgresql.ssl-mode") Optional<String> sslMode,
                          @ConfigProperty(name = "quarkus.datasource.reactive.trust-all") Optional<Boolean> trustAll,
                          @ConfigProperty(name = "quarkus.datasource.reactive.trust-certificate-pem.certs") Optional<List<String>> trustedPem,
                          @ConfigProperty(name = "quarkus.datasource.reactive.hostname-verification-algorithm") Optional<String> hostnameVerification) {
        this.directory = directory;
        this.vertx = vertx;
        this.pool = pool;
        this.heartbeatMillis = Math.max(100, config.listenerHeartbeat().toMillis());
        this.silenceNanos = TimeUnit.MILLISECONDS.toNanos(heartbeatMillis * 5 / 2);
        this.options = PgConnectOptions.fromUri(config.listenerUrl().orElse(url).replaceFirst("^vertx-reactive:", ""))
                .setTcpKeepAlive(true);
        username.ifPresent(options::setUser);
        password.ifPresent(options::setPassword);
        sslMode.ifPresent(mode -> options.setSslMode(SslMode.of(mode)));
        trustAll.ifPresent(options::setTrustAll);
        trustedPem.ifPresent(paths -> {
            PemTrustOptions pem = new PemTrustOptions();
            paths.forEach(pem::addCertPath);
            options.setPemTrustOptions(pem);
        });
        hostnameVerification.filter(algorithm -> !"NONE".equalsIgnoreCase(algorithm)).ifPresent(options::setHostnameVerificationAlgorithm);
    }

    void start(@Observes StartupEvent event) {
        connect();
        timer = vertx.setPeriodic(heartbeatMillis, id -> beat());
    }

    void stop(@Observes ShutdownEvent event) {
        vertx.cancelTimer(timer);
        subscriber.close().subscribe().with(closed -> { }, failure -> { });
    }

    private void connect() {
        PgSubscriber next = PgSubscriber.subscriber(vertx, options);
        next.reconnectPolicy(retries -> {
            // Called as soon as the connection is lost: from then on a change could go unnoticed.
            directory.distrust();
            return 1000L;
        });
        next.channel(CHANNEL).handler(directory::drop).subscribeHandler(() -> {
            heardAtNanos = System.nanoTime();
            directory.trust();
        });
        next.channel(HEARTBEAT_CHANNEL).handler(beat -> heardAtNanos = System.nanoTime());
        subscriber = next;
        connectedAtNanos = System.nanoTime();
        next.connect().subscribe().with(
                connected -> LOG.debug("Listening for webhook changes"),
                failure -> LOG.warnf("Not listening for webhook changes yet (webhook cache off, trying again): %s",
                        failure.toString()));
    }

    /** Sends the next heartbeat, and gives up on a connection that has not heard one for too long. */
    private void beat() {
        pool.preparedQuery(HEARTBEAT).execute(Tuple.of(HEARTBEAT_CHANNEL)).subscribe().with(sent -> { }, failure -> { });
        long now = System.nanoTime();
        if (now - heardAtNanos > silenceNanos) {
            directory.distrust();
            if (now - connectedAtNanos > silenceNanos) {
                LOG.warnf("Webhook change listener heard nothing for %d ms: connecting it again",
                        TimeUnit.NANOSECONDS.toMillis(now - heardAtNanos));
                PgSubscriber silent = subscriber;
                connect();
                silent.close().subscribe().with(closed -> { }, failure -> { });
            }
        }
    }
}
