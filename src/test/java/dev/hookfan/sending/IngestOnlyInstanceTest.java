package dev.hookfan.sending;

import dev.hookfan.support.Webhooks;
import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@TestProfile(IngestOnlyInstanceTest.IngestOnly.class)
class IngestOnlyInstanceTest {

    static final String ORG = "org_ingest_only";

    public static class IngestOnly implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("hookfan.delivery.sending-enabled", "false");
        }
    }

    Receiver receiver;
    Broker broker;

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
        broker = Broker.connect();
        broker.purge(Broker.DELIVERIES);
    }

    @AfterEach
    void stop() {
        // The requests left queued would otherwise reach the next test's sender.
        broker.purge(Broker.DELIVERIES);
        receiver.close();
        broker.close();
    }

    @Test
    void should_write_deliveries_with_their_sweep_row_and_queue_their_requests_but_send_nothing_when_sending_is_disabled() {
        Webhooks.create(ORG, receiver.url("/ingest-only"));
        broker.publish("organization.member_removed", Broker.newMessageId(),
                Broker.event("organization.member_removed", ORG, "{\"n\":1}"));

        await().atMost(Duration.ofSeconds(10)).until(() -> Database.count(
                "select count(*) from webhook_delivery where organization_id = ?", ORG) == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.count(Broker.DELIVERIES) == 1);
        // Past the test profile's 1 s sweep grace and 1 s poll interval: the poller would have swept it by now.
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6))
                .until(() -> receiver.requests("/ingest-only").isEmpty() && broker.count(Broker.DELIVERIES) == 1);
        assertEquals(1, Database.count("select count(*) from webhook_delivery where organization_id = ? and status = 'pending'"
                + " and attempts = 0 and lease_until is null", ORG));
        // A fresh row is not in the due index: its fan-out's one sweep row is what a sending instance's poller sweeps.
        assertEquals(1, Database.count("select count(*) from webhook_delivery d join delivery_sweep s on d.id = any(s.delivery_ids)"
                + " where d.organization_id = ? and d.next_attempt_at is null", ORG));
        assertEquals(1, Database.count("select count(*) from delivery_sweep"));
    }
}
