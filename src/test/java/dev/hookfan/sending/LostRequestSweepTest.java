package dev.hookfan.sending;

import dev.hookfan.support.Database;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The sweep on its own (an ingest-only instance, whose poller sweeps nothing meanwhile): a due sweep row's unsent
 * deliveries become due, no more of them than the budget, and the rest are named again in a sweep row due now.
 */
@QuarkusTest
@TestProfile(IngestOnlyInstanceTest.IngestOnly.class)
class LostRequestSweepTest {

    static final String ORG = "org_sweep";

    @Inject
    LostRequestSweep sweep;

    List<String> ids;

    @BeforeEach
    void start() {
        Database.reset();
        // A webhook of its own (the orphan sweep would cancel the due deliveries of one that does not exist).
        String webhookId = given().contentType(ContentType.JSON)
                .body("{\"url\":\"http://127.0.0.1:9/hook\",\"eventTypes\":[\"*\"],\"enabled\":false}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().path("id");
        ids = IntStream.range(0, 10).mapToObj(i -> String.format("d_swept_%02d", i)).toList();
        ids.forEach(id -> Database.pendingDelivery(id, webhookId, ORG, "null"));
        Database.update("insert into delivery_sweep (delivery_ids, due_at) values (?::varchar[], now())",
                "{" + String.join(",", ids) + "}");
    }

    @Test
    void should_make_no_more_unsent_deliveries_due_than_the_budget_and_name_the_rest_again_due_now() {
        sweep.makeDue(100, 4).await().atMost(Duration.ofSeconds(10));

        assertEquals(4, Database.count("select count(*) from webhook_delivery where next_attempt_at is not null"));
        assertEquals(1, Database.count("select count(*) from delivery_sweep where due_at <= now()"));
        assertEquals(6, Database.count("select count(*) from webhook_delivery d join delivery_sweep s"
                + " on d.id = any(s.delivery_ids) where d.next_attempt_at is null"));

        sweep.makeDue(100, 100).await().atMost(Duration.ofSeconds(10));

        assertEquals(10, Database.count("select count(*) from webhook_delivery where next_attempt_at is not null"));
        assertEquals(0, Database.count("select count(*) from delivery_sweep"));
    }

    @Test
    void should_leave_sent_and_already_due_deliveries_as_they_are() {
        Database.update("update webhook_delivery set status = 'delivered' where id = ?", ids.get(0));
        Database.update("update webhook_delivery set next_attempt_at = now() + interval '1 hour' where id = ?", ids.get(1));

        sweep.makeDue(100, 100).await().atMost(Duration.ofSeconds(10));

        assertEquals(List.of(List.of(ids.get(0), "delivered", false), List.of(ids.get(1), "pending", true)),
                Database.query("select id, status, coalesce(next_attempt_at > now() + interval '30 minutes', false) from webhook_delivery"
                        + " where id in (?, ?) order by id", ids.get(0), ids.get(1)));
        assertEquals(8, Database.count("select count(*) from webhook_delivery where next_attempt_at <= now()"));
        assertEquals(0, Database.count("select count(*) from delivery_sweep"));
    }
}
