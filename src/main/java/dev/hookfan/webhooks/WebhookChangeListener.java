package dev.hookfan.webhooks;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.pgclient.PgConnectOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.Optional;

/**
 * LISTENs on the channel the webhook table's trigger notifies (V4 migration) and drops the changed
 * organization's cached subscriptions. Its own connection, reconnected forever; while it is down nothing is cached.
 */
@ApplicationScoped
public class WebhookChangeListener {

    static final String CHANNEL = "hookfan_webhook_changes";
    private static final Logger LOG = Logger.getLogger(WebhookChangeListener.class);

    private final WebhookDirectory directory;
    private final PgSubscriber subscriber;

    WebhookChangeListener(WebhookDirectory directory, Vertx vertx,
                          @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                          @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
                          @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        this.directory = directory;
        PgConnectOptions options = PgConnectOptions.fromUri(url.replaceFirst("^vertx-reactive:", ""));
        username.ifPresent(options::setUser);
        password.ifPresent(options::setPassword);
        this.subscriber = PgSubscriber.subscriber(vertx, options)
                // Called as soon as the connection is lost: from then on a change could go unnoticed.
                .reconnectPolicy(retries -> {
                    directory.distrust();
                    return 1000L;
                });
        subscriber.channel(CHANNEL)
                .handler(directory::drop)
                .subscribeHandler(directory::trust);
    }

    void start(@Observes StartupEvent event) {
        subscriber.connect().subscribe().with(
                connected -> LOG.debug("Listening for webhook changes"),
                failure -> LOG.warnf("Not listening for webhook changes yet (retrying): %s", failure.toString()));
    }

    void stop(@Observes ShutdownEvent event) {
        subscriber.close().subscribe().with(closed -> { }, failure -> { });
    }
}
