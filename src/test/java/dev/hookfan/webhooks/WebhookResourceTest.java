package dev.hookfan.webhooks;

import dev.hookfan.support.Database;
import dev.hookfan.support.Pages;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class WebhookResourceTest {

    static final String ORG = "org_api";
    static final String BASE = "/organizations/{org}/webhooks";

    @BeforeEach
    void reset() {
        Database.reset();
    }

    static Response create(String org, String body) {
        return given().contentType(ContentType.JSON).body(body).post(BASE, org);
    }

    static String createdId(String org, String url, String types) {
        return create(org, "{\"url\":\"" + url + "\",\"eventTypes\":" + types + "}")
                .then().statusCode(201).extract().path("id");
    }

    @Test
    void should_create_a_webhook_with_its_secret_and_location() {
        Response response = create(ORG, "{\"url\":\"https://localhost/hooks\",\"eventTypes\":[\"organization.member_removed\","
                + "\"organization.member_removed\",\"billing.entitlements_updated\"],\"description\":\"ops\"}");
        response.then().statusCode(201)
                .header("Location", containsString("/organizations/org_api/webhooks/"))
                .body("id", matchesPattern("[0-9a-f]{32}"))
                .body("organizationId", equalTo(ORG))
                .body("url", equalTo("https://localhost/hooks"))
                .body("eventTypes", equalTo(List.of("organization.member_removed", "billing.entitlements_updated")))
                .body("description", equalTo("ops"))
                .body("enabled", is(true))
                .body("disabledReason", nullValue())
                .body("createdAt", notNullValue())
                .body("secret", startsWith("whsec_"));
        String secret = response.path("secret");
        assertEquals(32, java.util.Base64.getDecoder().decode(secret.substring("whsec_".length())).length);
        assertTrue(response.header("Location").endsWith((String) response.path("id")));
    }

    @Test
    void should_show_the_secret_only_in_create_secret_and_rotate() {
        String created = create(ORG, "{\"url\":\"https://localhost/a\",\"eventTypes\":[\"*\"]}").then().statusCode(201)
                .extract().path("secret");
        String id = given().get(BASE, ORG).then().statusCode(200)
                .body("items[0]", not(hasKey("secret"))).extract().path("items[0].id");
        given().get(BASE + "/{id}", ORG, id).then().statusCode(200).body("$", not(hasKey("secret")));
        given().get(BASE + "/{id}/secret", ORG, id).then().statusCode(200).body("secret", equalTo(created));
        given().contentType(ContentType.JSON).body("{\"description\":\"x\"}").patch(BASE + "/{id}", ORG, id)
                .then().statusCode(200).body("$", not(hasKey("secret")));
    }

    @Test
    void should_answer_404_for_another_organizations_webhook() {
        String id = createdId(ORG, "https://localhost/a", "[\"*\"]");
        for (String path : List.of(BASE + "/{id}", BASE + "/{id}/secret")) {
            given().get(path, "org_other", id).then().statusCode(404)
                    .contentType("application/problem+json").body("status", is(404));
        }
        given().contentType(ContentType.JSON).body("{\"enabled\":false}").patch(BASE + "/{id}", "org_other", id).then().statusCode(404);
        given().delete(BASE + "/{id}", "org_other", id).then().statusCode(404);
        given().post(BASE + "/{id}/secret/rotate", "org_other", id).then().statusCode(404);
        given().get(BASE + "/{id}", ORG, "0123456789abcdef0123456789abcdef").then().statusCode(404);
        given().get(BASE + "/{id}", ORG, id).then().statusCode(200);
    }

    @Test
    void should_replace_with_put_and_merge_with_patch() {
        String id = createdId(ORG, "https://localhost/a", "[\"a.b\"]");
        given().contentType(ContentType.JSON).body("{\"url\":\"https://localhost/b\",\"eventTypes\":[\"c.d\"],\"enabled\":false}")
                .put(BASE + "/{id}", ORG, id).then().statusCode(200)
                .body("url", equalTo("https://localhost/b")).body("eventTypes", equalTo(List.of("c.d")))
                .body("enabled", is(false)).body("description", nullValue());
        given().contentType("application/merge-patch+json").body("{\"enabled\":true,\"description\":\"kept\"}")
                .patch(BASE + "/{id}", ORG, id).then().statusCode(200)
                .body("url", equalTo("https://localhost/b")).body("enabled", is(true)).body("description", equalTo("kept"));
        given().contentType(ContentType.JSON).body("{\"description\":null}")
                .patch(BASE + "/{id}", ORG, id).then().statusCode(200).body("description", nullValue());
        given().contentType(ContentType.JSON).body("{\"url\":\"https://localhost/c\"}").put(BASE + "/{id}", ORG, id)
                .then().statusCode(400).body("errors.field", hasItem("eventTypes"));
    }

    @Test
    void should_delete_and_cancel_pending_deliveries_keeping_their_history() {
        String id = createdId(ORG, "https://localhost/a", "[\"*\"]");
        Database.update("insert into webhook_delivery (id, webhook_id, organization_id, event_id, status, attempts,"
                + " next_attempt_at, created_at) values ('d0000000000000000000000000000001', ?, ?, 'ee000000000000000000000000000000', 'pending', 0,"
                + " now() + interval '1 hour', now())", id, ORG);
        given().delete(BASE + "/{id}", ORG, id).then().statusCode(204);
        given().get(BASE + "/{id}", ORG, id).then().statusCode(404);
        given().get("/organizations/{org}/deliveries/{d}", ORG, "d0000000000000000000000000000001")
                .then().statusCode(200).body("status", equalTo("cancelled"));
    }

    @Test
    void should_paginate_in_creation_order_without_duplicates_or_gaps() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            created.add(createdId(ORG, "https://localhost/" + i, "[\"*\"]"));
        }
        createdId("org_other", "https://localhost/other", "[\"*\"]");
        Pages.Walked walked = Pages.walk(3, BASE, ORG);
        List<String> seen = walked.ids();
        assertEquals(created, seen);
        assertEquals(3, walked.pages());
        assertEquals(seen.size(), new HashSet<>(seen).size());
        given().get(BASE, ORG).then().body("items.size()", is(7)).body("next", nullValue());
        given().queryParam("limit", 0).get(BASE, ORG).then().statusCode(400).body("errors[0].field", equalTo("limit"));
        given().queryParam("limit", 201).get(BASE, ORG).then().statusCode(400).body("errors[0].field", equalTo("limit"));
        given().queryParam("after", "garbage!").get(BASE, ORG).then().statusCode(400).body("errors[0].field", equalTo("after"));
    }

    @Test
    void should_name_the_field_of_each_validation_rule() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("{\"eventTypes\":[\"a.b\"]}", "url"),
                Map.entry("{\"url\":\"ftp://example.com\",\"eventTypes\":[\"a.b\"]}", "url"),
                Map.entry("{\"url\":\"/relative\",\"eventTypes\":[\"a.b\"]}", "url"),
                Map.entry("{\"url\":\"https://user:pw@localhost\",\"eventTypes\":[\"a.b\"]}", "url"),
                Map.entry("{\"url\":\"https://localhost/#frag\",\"eventTypes\":[\"a.b\"]}", "url"),
                Map.entry("{\"url\":\"https://localhost/" + "x".repeat(2050) + "\",\"eventTypes\":[\"a.b\"]}", "url"),
                Map.entry("{\"url\":42,\"eventTypes\":[\"a.b\"]}", "url"),
                Map.entry("{\"url\":\"https://localhost\"}", "eventTypes"),
                Map.entry("{\"url\":\"https://localhost\",\"eventTypes\":[]}", "eventTypes"),
                Map.entry("{\"url\":\"https://localhost\",\"eventTypes\":\"a.b\"}", "eventTypes"),
                Map.entry("{\"url\":\"https://localhost\",\"eventTypes\":[\"a.b\",\"a.b\",\"Bad.Type\"]}", "eventTypes[2]"),
                Map.entry("{\"url\":\"https://localhost\",\"eventTypes\":[\"nodot\"]}", "eventTypes[0]"),
                Map.entry("{\"url\":\"https://localhost\",\"eventTypes\":[\"a.b\",\"*\"]}", "eventTypes[1]"),
                Map.entry("{\"url\":\"https://localhost\",\"eventTypes\":[\"a.b\",7]}", "eventTypes[1]"),
                Map.entry("{\"url\":\"https://localhost\",\"eventTypes\":[\"a.b\"],\"description\":\"" + "d".repeat(501) + "\"}", "description"),
                Map.entry("{\"url\":\"https://localhost\",\"eventTypes\":[\"a.b\"],\"enabled\":\"yes\"}", "enabled"),
                Map.entry("{\"url\":\"https://localhost\",\"eventTypes\":[\"a.b\"],\"secret\":\"mine\"}", "secret"),
                Map.entry("[1,2]", "body"));
        cases.forEach((body, field) -> create(ORG, body).then().statusCode(400)
                .contentType("application/problem+json")
                .body("type", notNullValue()).body("title", notNullValue()).body("status", is(400))
                .body("detail", notNullValue())
                .body("errors.field", hasItem(field)));
        String types = "[" + String.join(",", java.util.stream.IntStream.range(0, 101).mapToObj(i -> "\"t.e" + i + "\"").toList()) + "]";
        create(ORG, "{\"url\":\"https://localhost\",\"eventTypes\":" + types + "}").then().statusCode(400)
                .body("errors.field", hasItem("eventTypes"));
        assertEquals(0, Database.count("select count(*) from webhook"));
    }

    @Test
    void should_name_every_broken_field_of_one_body_whatever_broke_it() {
        // A wrong JSON type, a broken constraint, a rule of the service's own and an unknown field, all in one answer.
        create(ORG, "{\"url\":42,\"eventTypes\":[\"a.b\",7,\"Bad\"],\"description\":\"" + "d".repeat(501) + "\","
                + "\"enabled\":\"yes\",\"rateLimit\":0,\"timeout\":\"2\",\"headers\":{\"Connection\":\"close\"},\"secret\":\"mine\"}")
                .then().statusCode(400).contentType("application/problem+json")
                .body("detail", equalTo("9 fields are invalid"))
                .body("errors.field", containsInAnyOrder("url", "eventTypes[1]", "eventTypes[2]", "description", "enabled",
                        "rateLimit", "timeout", "headers.Connection", "secret"));
        String id = createdId(ORG, "https://localhost/a", "[\"a.b\"]");
        given().contentType("application/merge-patch+json").body("{\"rateLimit\":\"fast\",\"eventTypes\":[],\"enabled\":null,\"colour\":1}")
                .patch(BASE + "/{id}", ORG, id).then().statusCode(400)
                .body("errors.field", containsInAnyOrder("rateLimit", "eventTypes", "enabled", "colour"));
        given().get(BASE + "/{id}", ORG, id).then().body("eventTypes", equalTo(List.of("a.b"))).body("enabled", is(true));
        assertEquals(1, Database.count("select count(*) from webhook"));
    }

    @Test
    void should_answer_problems_for_malformed_json_and_wrong_content_type() {
        create(ORG, "{\"url\":").then().statusCode(400).contentType("application/problem+json").body("status", is(400));
        given().contentType(ContentType.TEXT).body("hello").post(BASE, ORG).then().statusCode(415)
                .contentType("application/problem+json").body("status", is(415));
        given().get(BASE, "bad org!").then().statusCode(400).body("errors[0].field", equalTo("organizationId"));
    }

    @Test
    void should_refuse_a_webhook_over_the_organization_limit() {
        Database.update("insert into organization_entitlements (organization_id, limits, max_webhooks, updated_at, received_at)"
                + " values (?, '{\"maxWebhooks\":2}', 2, now(), now())", "org_small");
        createdId("org_small", "https://localhost/1", "[\"*\"]");
        createdId("org_small", "https://localhost/2", "[\"*\"]");
        create("org_small", "{\"url\":\"https://localhost/3\",\"eventTypes\":[\"*\"]}").then().statusCode(409)
                .contentType("application/problem+json").body("type", containsString("webhook-limit-reached"));
        assertEquals(2, Database.count("select count(*) from webhook where organization_id = 'org_small'"));
    }

    @Test
    void should_keep_the_previous_secret_valid_for_the_grace_after_rotation() {
        Response created = create(ORG, "{\"url\":\"https://localhost/a\",\"eventTypes\":[\"*\"]}");
        String id = created.path("id");
        String first = created.path("secret");
        String second = given().post(BASE + "/{id}/secret/rotate", ORG, id).then().statusCode(200)
                .body("secret", startsWith("whsec_")).extract().path("secret");
        assertNotEquals(first, second);
        given().get(BASE + "/{id}/secret", ORG, id).then().body("secret", equalTo(second));
        List<List<Object>> rows = Database.query("select secret, expires_at from webhook_secret where webhook_id = ? order by created_at", id);
        assertEquals(2, rows.size());
        assertEquals(first, rows.get(0).get(0));
        OffsetDateTime expiry = ((java.sql.Timestamp) rows.get(0).get(1)).toInstant().atOffset(java.time.ZoneOffset.UTC);
        Duration grace = Duration.between(OffsetDateTime.now(java.time.ZoneOffset.UTC), expiry);
        assertTrue(grace.compareTo(Duration.ofHours(23)) > 0 && grace.compareTo(Duration.ofHours(25)) < 0, grace.toString());
        assertEquals(null, rows.get(1).get(1));
    }

    @Test
    void should_refuse_an_update_that_read_the_webhook_before_the_sender_disabled_it() throws Exception {
        String id = createdId(ORG, "https://localhost/hooks", "[\"*\"]");
        String put = "{\"url\":\"https://localhost/hooks\",\"eventTypes\":[\"*\"],\"description\":\"renamed\"}";
        assertRefusedAndStillDisabled(id, raceWithDisable(id, () -> given().contentType(ContentType.JSON).body(put)
                .put(BASE + "/{id}", ORG, id)));
        given().contentType(ContentType.JSON).body("{\"enabled\":true}").patch(BASE + "/{id}", ORG, id).then().statusCode(200);
        assertRefusedAndStillDisabled(id, raceWithDisable(id, () -> given().contentType(ContentType.JSON)
                .body("{\"description\":\"renamed\"}").patch(BASE + "/{id}", ORG, id)));
        // A delete is not refused for what changed meanwhile.
        given().contentType(ContentType.JSON).body("{\"enabled\":true}").patch(BASE + "/{id}", ORG, id).then().statusCode(200);
        raceWithDisable(id, () -> given().delete(BASE + "/{id}", ORG, id)).then().statusCode(204);
        given().get(BASE + "/{id}", ORG, id).then().statusCode(404);
    }

    private static void assertRefusedAndStillDisabled(String id, Response answer) {
        answer.then().statusCode(409).contentType("application/problem+json").body("type", containsString("webhook-changed"));
        given().get(BASE + "/{id}", ORG, id).then().body("enabled", is(false)).body("description", nullValue())
                .body("disabledReason", equalTo("gone"));
    }

    /** The sender's disable (AttemptRecorder's statement) commits while the call waits to write the webhook's row. */
    private static Response raceWithDisable(String id, java.util.function.Supplier<Response> call) throws Exception {
        java.util.concurrent.CompletableFuture<Response> answer;
        try (AutoCloseable disabling = Database.committingOnClose("update webhook set enabled = false, disabled_reason = 'gone',"
                + " updated_at = now(), version = version + 1 where id = ?", id)) {
            answer = java.util.concurrent.CompletableFuture.supplyAsync(call);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> Database.waitingForALock("%webhook%") >= 1);
        }
        return answer.get(10, java.util.concurrent.TimeUnit.SECONDS);
    }
}
