package dev.hookfan.deliveries;

import dev.hookfan.support.Webhooks;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import dev.hookfan.support.Statements;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** After a subscriber's outage its owner sends every failed delivery of a window again, in one call. */
@QuarkusTest
class BulkRecoveryTest {

    static final String ORG = "org_recovery";
    static final String RECOVER = "/organizations/{org}/webhooks/{id}/recover";

    Receiver receiver;

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    String webhook(String path) {
        return Webhooks.create(ORG, receiver.url(path));
    }

    /** Deliveries of the webhook written as the sender leaves them, created the given time ago. */
    static void deliveries(String prefix, int count, String webhookId, String status, String age) {
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts,"
                + " next_attempt_at, last_error, created_at) select ? || lpad(i::text, 32 - length(?), '0'), ?, ?, ?, ?, 4,"
                + " case when ? = 'pending' then now() + interval '1 hour' end, 'HTTP 503', now() - ?::interval"
                + " from generate_series(1, ?) i", prefix, prefix, webhookId, ORG, Database.EVENT, status, status, age, count);
    }

    static Response recover(String webhookId, String body) {
        return given().contentType(ContentType.JSON).body(body).post(RECOVER, ORG, webhookId);
    }

    static String since(Duration ago) {
        return Instant.now().minus(ago).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    @Test
    void should_send_the_failed_deliveries_of_the_window_again_and_nothing_else() {
        String webhookId = webhook("/recovered");
        String other = webhook("/other");
        deliveries("aa", 3, webhookId, "failed", "1 hour");
        deliveries("ab", 2, webhookId, "failed", "3 days");
        deliveries("ac", 2, webhookId, "delivered", "1 hour");
        deliveries("ad", 2, webhookId, "pending", "1 hour");
        deliveries("ae", 2, webhookId, "cancelled", "1 hour");
        deliveries("af", 2, other, "failed", "1 hour");

        recover(webhookId, "{\"since\":\"" + since(Duration.ofDays(2)) + "\"}").then().statusCode(202).body("requeued", is(3));
        await().atMost(Duration.ofSeconds(10)).until(() -> Database.count("select count(*) from webhook_delivery"
                + " where id like 'aa%' and status = 'delivered'") == 3);
        Set<String> sent = receiver.requests("/recovered").stream().map(request -> request.header("webhook-id")).collect(Collectors.toSet());
        assertEquals(Database.query("select id from webhook_delivery where id like 'aa%'").stream()
                .map(row -> (String) row.get(0)).collect(Collectors.toSet()), sent);
        assertEquals(3, receiver.requests("/recovered").size());
        assertEquals(List.of(List.of("failed", 2L), List.of("delivered", 2L), List.of("pending", 2L), List.of("cancelled", 2L),
                        List.of("failed", 2L)),
                List.of("ab", "ac", "ad", "ae", "af").stream().map(prefix -> Database.query("select min(status), count(*)"
                        + " from webhook_delivery where id like ? || '%'", prefix).get(0)).toList());
        assertEquals(0, receiver.requests("/other").size());

        // Again: what it reopened is delivered now, so nothing is sent twice.
        recover(webhookId, "{\"since\":\"" + since(Duration.ofDays(2)) + "\"}").then().statusCode(202).body("requeued", is(0));
        // A window that ends before the older ones were created takes none of them either.
        recover(webhookId, "{\"since\":\"" + since(Duration.ofDays(4)) + "\",\"until\":\"" + since(Duration.ofDays(3).plusHours(1))
                + "\"}").then().statusCode(202).body("requeued", is(0));
    }

    @Test
    void should_recover_any_number_of_deliveries_in_short_batches() {
        String webhookId = webhook("/many");
        deliveries("b", 1234, webhookId, "failed", "1 hour");
        Statements statements = Statements.countedFromNow();

        recover(webhookId, "{\"since\":\"" + since(Duration.ofDays(1)) + "\"}").then().statusCode(202).body("requeued", is(1234));
        // 500 a statement (hookfan.recovery.batch-size), each its own transaction.
        assertEquals(3, statements.calls("with chosen as (select id from webhook_delivery where webhook_id%"), statements.ran());
        await().atMost(Duration.ofSeconds(60)).until(() -> Database.count("select count(*) from webhook_delivery"
                + " where status = 'delivered'") == 1234);
        assertEquals(1234, new HashSet<>(receiver.requests("/many").stream().map(request -> request.header("webhook-id")).toList()).size());
    }

    @Test
    void should_name_the_field_of_a_window_it_refuses() {
        String webhookId = webhook("/refused");
        recover(webhookId, "{}").then().statusCode(400).contentType("application/problem+json").body("errors.field", hasItem("since"));
        recover(webhookId, "{\"since\":\"yesterday\"}").then().statusCode(400).body("errors.field", hasItem("since"));
        recover(webhookId, "{\"since\":\"" + since(Duration.ofDays(15)) + "\"}").then().statusCode(400)
                .body("errors.field", hasItem("since"));
        recover(webhookId, "{\"since\":\"" + since(Duration.ofDays(1)) + "\",\"until\":\"" + since(Duration.ofDays(2)) + "\"}")
                .then().statusCode(400).body("errors.field", hasItem("until"));
        recover(webhookId, "{\"since\":\"" + since(Duration.ofDays(1)) + "\",\"status\":\"delivered\"}").then().statusCode(400)
                .body("errors.field", hasItem("status"));
        recover(webhookId, "{\"since\":42,\"until\":\"tomorrow\",\"status\":\"failed\"}").then().statusCode(400)
                .body("errors.field", org.hamcrest.Matchers.containsInAnyOrder("since", "until", "status"));
        recover("0123456789abcdef0123456789abcdef", "{\"since\":\"" + since(Duration.ofDays(1)) + "\"}").then().statusCode(404);
        given().contentType(ContentType.JSON).body("{\"enabled\":false}").patch("/organizations/{org}/webhooks/{id}", ORG, webhookId)
                .then().statusCode(200);
        recover(webhookId, "{\"since\":\"" + since(Duration.ofDays(1)) + "\"}").then().statusCode(409)
                .body("type", org.hamcrest.Matchers.endsWith("webhook-disabled"));
    }
}
