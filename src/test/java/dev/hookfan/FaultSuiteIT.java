package dev.hookfan;

import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Instance;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults against the packaged service and the real broker and database, each restoring what it disturbed.
 * Prints, per scenario, events published / delivery rows / duplicate sends / lost / in DLQ.
 */
@QuarkusIntegrationTest
@TestProfile(FaultSuiteIT.Faults.class)
class FaultSuiteIT {

    /** Retry pauses of 1, 2, 4, 4, 4 s: a few seconds of outage fit inside the schedule. */
    public static class Faults implements QuarkusTestProfile {
        static final Map<String, String> OVERRIDES = Map.of(
                "hookfan.messaging.retry.min-interval", "1S",
                "hookfan.messaging.retry.interval-delta", "1S",
                "hookfan.messaging.retry.max-interval", "4S");

        @Override
        public Map<String, String> getConfigOverrides() {
            return OVERRIDES;
        }
    }

    static final Path REPORT = Path.of("target/fault-suite.md");
    static final String ORG = "org_faults";

    Receiver receiver;
    Broker broker;
    Instance second;

    @BeforeEach
    void start() {
        restoreServices();
        Database.reset();
        receiver = Receiver.start();
        broker = Broker.connect();
        broker.purge(Broker.DLQ);
        // A scenario starts from an empty stream, whatever the one before left behind.
        broker.purge(Broker.WORK_QUEUE);
        broker.purge(Broker.DELIVERIES);
        for (String pause : List.of("1000ms", "2000ms", "4000ms")) {
            broker.purge(Broker.WORK_QUEUE + ".retry." + pause);
        }
        second = new Instance("fault-second-instance", Faults.OVERRIDES).start();
    }

    @AfterEach
    void stop() {
        restoreServices();
        second.close();
        receiver.close();
        broker.close();
    }

    @AfterAll
    static void printReport() throws IOException {
        if (Files.exists(REPORT)) {
            System.out.println("\n" + Files.readString(REPORT));
        }
    }

    List<String> webhooks(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(given().contentType(ContentType.JSON).body("{\"url\":\"" + receiver.url("/faults") + "\",\"eventTypes\":[\"*\"]}")
                    .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().path("id"));
        }
        return ids;
    }

    List<String> publish(int events) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < events; i++) {
            String id = Broker.newMessageId();
            ids.add(id);
            broker.publish("organization.member_removed", id, Broker.event("organization.member_removed", ORG, "{\"n\":" + i + "}"));
        }
        return ids;
    }

    static long rows() {
        return Database.count("select count(*) from webhook_delivery where organization_id = ?", ORG);
    }

    static long delivered() {
        return Database.count("select count(*) from webhook_delivery where organization_id = ? and status = 'delivered'", ORG);
    }

    /** Checks and reports: every expected delivery row exists once and was received; returns duplicate sends. */
    long settle(String scenario, int published, int expectedRows, long inDlq, Duration within) throws IOException {
        await().atMost(within).pollInterval(Duration.ofMillis(500)).until(() -> delivered() >= expectedRows);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> rows() == expectedRows);
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/faults").stream()
                .filter(r -> r.answeredWith() / 100 == 2).map(r -> r.header("webhook-id")).distinct().count() >= expectedRows);
        // Received = answered 2xx; a second 2xx for one delivery id is a duplicate send (a crash cut off its record).
        List<String> sent = receiver.requests("/faults").stream().filter(r -> r.answeredWith() / 100 == 2)
                .map(r -> r.header("webhook-id")).toList();
        long distinct = new HashSet<>(sent).size();
        long lost = expectedRows - Math.min(expectedRows, distinct);
        long duplicates = sent.size() - distinct;
        String line = String.format("| %s | %d | %d | %d | %d | %d |%n", scenario, published, rows(), duplicates, lost, inDlq);
        if (!Files.exists(REPORT)) {
            Files.writeString(REPORT, "| scenario | events published | delivery rows | duplicate sends | lost | in DLQ |\n|---|---|---|---|---|---|\n");
        }
        Files.writeString(REPORT, line, StandardOpenOption.APPEND);
        System.out.print("fault suite: " + line);
        assertEquals(expectedRows, rows());
        assertEquals(0, lost, "deliveries never received");
        return duplicates;
    }

    @Test
    void crash_mid_stream_loses_and_duplicates_no_delivery_row() throws Exception {
        webhooks(3);
        List<String> events = publish(5000);
        await().atMost(Duration.ofSeconds(60)).until(() -> rows() >= 1500);
        second.kill();
        second.start();
        settle("kill -9 mid-stream, restart", events.size(), 15_000, broker.count(Broker.DLQ), Duration.ofSeconds(240));
        assertEquals(0, broker.count(Broker.DLQ));
    }

    @Test
    void duplicate_storm_makes_one_row_per_message_and_webhook() throws Exception {
        webhooks(2);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add(Broker.newMessageId());
        }
        for (int copy = 0; copy < 20; copy++) {
            for (String id : ids) {
                broker.publish("organization.member_removed", id, Broker.event("organization.member_removed", ORG, "{}"));
            }
        }
        settle("duplicate storm: 100 ids x 20 copies, 2 instances", 2000, 200, broker.count(Broker.DLQ), Duration.ofSeconds(120));
        assertEquals(0, broker.count(Broker.DLQ));
    }

    @Test
    void subscriber_outage_ends_with_every_delivery_delivered_on_schedule() throws Exception {
        webhooks(1);
        receiver.unavailableFor(Duration.ofSeconds(2));
        List<String> events = publish(50);
        settle("subscriber answers 503 for 2 s", events.size(), 50, broker.count(Broker.DLQ), Duration.ofSeconds(60));
        assertTrue(Database.count("select count(*) from delivery_attempt where response_status = 503") > 0);
        List<List<Object>> gaps = Database.query("select min(extract(epoch from (b.started_at - a.started_at)) * 1000)"
                + " from delivery_attempt a join delivery_attempt b on b.delivery_id = a.delivery_id"
                + " and b.attempt_number = a.attempt_number + 1");
        double shortest = ((Number) gaps.get(0).get(0)).doubleValue();
        assertTrue(shortest >= 990, "retried after " + shortest + " ms, the schedule says 1 s");
    }

    @Test
    void database_outage_shorter_than_the_schedule_persists_every_event_once() throws Exception {
        webhooks(1);
        publish(20);
        await().atMost(Duration.ofSeconds(30)).until(() -> rows() == 20);
        run("pg_ctlcluster", "--skip-systemctl-redirect", postgresVersion(), "main", "stop", "-m", "fast");
        List<String> during = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String id = Broker.newMessageId();
            during.add(id);
            broker.publish("organization.member_removed", id, Broker.event("organization.member_removed", ORG, "{}"));
        }
        Thread.sleep(2000);
        restoreServices();
        settle("PostgreSQL down ~3 s while consuming", 50, 50, broker.count(Broker.DLQ), Duration.ofSeconds(90));
        assertEquals(0, broker.count(Broker.DLQ));
    }

    static String postgresVersion() throws Exception {
        try (var versions = Files.list(Path.of("/etc/postgresql"))) {
            return versions.map(p -> p.getFileName().toString()).sorted().findFirst().orElseThrow();
        }
    }

    static void restoreServices() {
        try {
            if (run("pg_isready", "-q", "-h", "127.0.0.1") != 0) {
                run("pg_ctlcluster", "--skip-systemctl-redirect", postgresVersion(), "main", "start");
                await().atMost(Duration.ofSeconds(30)).until(() -> run("pg_isready", "-q", "-h", "127.0.0.1") == 0);
            }
            run("rabbitmqctl", "start_app");
            run("rabbitmqctl", "await_startup");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static int run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(new java.io.File("target/fault-suite-commands.log"))).start();
        return process.waitFor();
    }
}
