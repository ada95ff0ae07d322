package dev.hookfan;

import dev.hookfan.support.Broker;
import dev.hookfan.support.Instance;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Big events to many webhooks in a small heap: 60 events of 512 KB of incompressible data to 40 webhooks each, ingested by
 * an instance with a 512 MiB heap. Before events were stored once (V13) every delivery carried its own copy of the
 * body, built in memory before the lookup: 60 × 40 × 512 KB. The instance has a database and queues of its own, so
 * nothing else consumes its events or sends its deliveries.
 */
@QuarkusIntegrationTest
class BigEventsIT {

    static final String DATABASE = "hookfan_big_events";
    static final String QUEUE = "hookfan.big-events";
    static final String ORG = "org_big";
    static final int EVENTS = 60;
    static final int WEBHOOKS = 40;
    static final int DATA_BYTES = 512 * 1024;

    static Connection connect(String database) throws Exception {
        String password = System.getenv().getOrDefault("QUARKUS_DATASOURCE_PASSWORD", "postgres");
        return DriverManager.getConnection("jdbc:postgresql://localhost:5432/" + database, "postgres", password);
    }

    static long count(Connection db, String sql) throws Exception {
        try (ResultSet rows = db.createStatement().executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void should_ingest_sixty_events_of_512_kb_to_forty_webhooks_each_in_a_512_mib_heap() throws Exception {
        try (Connection admin = connect("postgres")) {
            admin.createStatement().execute("drop database if exists " + DATABASE + " with (force)");
            admin.createStatement().execute("create database " + DATABASE);
        }
        try (Broker broker = Broker.connect()) {
            for (String queue : List.of(QUEUE, QUEUE + ".dead-letters", QUEUE + ".deliveries")) {
                broker.purgeIfPresent(queue);
            }
            Map<String, String> config = Map.ofEntries(
                    Map.entry("quarkus.datasource.reactive.url", "postgresql://localhost:5432/" + DATABASE),
                    Map.entry("quarkus.datasource.jdbc.url", "jdbc:postgresql://localhost:5432/" + DATABASE),
                    Map.entry("hookfan.messaging.queue", QUEUE),
                    Map.entry("hookfan.messaging.binding-keys", "big-events.none"),
                    Map.entry("hookfan.messaging.dead-letter-queue", QUEUE + ".dead-letters"),
                    Map.entry("hookfan.messaging.deliveries-queue", QUEUE + ".deliveries"),
                    Map.entry("hookfan.messaging.max-message-size", "1M"),
                    Map.entry("hookfan.delivery.sending-enabled", "false"));
            try (Instance instance = new Instance("big-events", config, List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError"))) {
                instance.start();
                try (Connection db = connect(DATABASE)) {
                    db.createStatement().execute("insert into webhook (id, organization_id, url, event_types, enabled,"
                            + " created_at, updated_at) select md5('big' || i), '" + ORG + "', 'http://127.0.0.1:9/' || i,"
                            + " '{*}', true, now(), now() from generate_series(1, " + WEBHOOKS + ") i");
                    Random random = new Random(42);
                    for (int i = 0; i < EVENTS; i++) {
                        byte[] data = new byte[DATA_BYTES * 3 / 4];
                        random.nextBytes(data);
                        String body = Broker.event("big.event", ORG, "{\"blob\":\"" + Base64.getEncoder().encodeToString(data) + "\"}");
                        broker.publishTo(QUEUE, "big-" + i, body.getBytes(StandardCharsets.UTF_8));
                    }
                    await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).until(() ->
                            !instance.running() || count(db, "select count(*) from webhook_delivery") == EVENTS * WEBHOOKS);

                    assertTrue(instance.running(), "the instance died:\n" + tail(instance.logSince(0)));
                    assertFalse(instance.logSince(0).contains("OutOfMemoryError"), tail(instance.logSince(0)));
                    assertEquals(EVENTS * WEBHOOKS, count(db, "select count(*) from webhook_delivery"));
                    // Each event's body once, not once per webhook.
                    assertEquals(EVENTS, count(db, "select count(*) from delivery_event"));
                    long stored = count(db, "select sum(octet_length(body)) from delivery_event");
                    assertTrue(stored < EVENTS * (DATA_BYTES + 1024L), stored + " bytes of bodies");
                    assertEquals(0, broker.count(QUEUE + ".dead-letters"));
                }
            } finally {
                for (String queue : List.of(QUEUE, QUEUE + ".dead-letters", QUEUE + ".deliveries")) {
                    broker.purgeIfPresent(queue);
                }
            }
        }
    }

    static String tail(String log) {
        return log.length() <= 4000 ? log : log.substring(log.length() - 4000);
    }
}
