package dev.hookfan.portal;

import dev.hookfan.support.Broker;
import dev.hookfan.support.Database;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The portal's door and its guards, over HTTP; the journeys themselves run in a browser (PortalBrowserTest). */
@QuarkusTest
class PortalTest {

    static final String ORG = "org_portal";
    static final String OTHER = "org_portal_other";

    @BeforeEach
    void reset() {
        Database.reset();
    }

    static String link(String organizationId) {
        return given().post("/organizations/{org}/portal-sessions", organizationId).then().statusCode(201)
                .body("url", startsWith("/portal/enter?session=")).extract().path("url");
    }

    static String cookie(String link) {
        Response entered = given().redirects().follow(false).get(link);
        assertEquals(303, entered.statusCode());
        assertEquals("/portal/webhooks", java.net.URI.create(entered.header("Location")).getPath());
        return entered.getCookie("hookfan-portal");
    }

    @Test
    void a_link_lasts_the_session_ttl_and_becomes_an_http_only_cookie_of_the_portal() {
        Response created = given().post("/organizations/{org}/portal-sessions", ORG).then().statusCode(201).extract().response();
        Instant expiresAt = Instant.parse(created.path("expiresAt"));
        assertTrue(Math.abs(Duration.between(Instant.now().plus(Duration.ofHours(1)), expiresAt).toSeconds()) < 5, expiresAt::toString);

        String setCookie = given().redirects().follow(false).get(created.<String>path("url")).then().statusCode(303)
                .extract().header("Set-Cookie");
        assertTrue(setCookie.startsWith("hookfan-portal="), setCookie);
        assertTrue(setCookie.contains("HttpOnly"), setCookie);
        assertTrue(setCookie.contains("Path=/portal"), setCookie);
        assertTrue(setCookie.toLowerCase().contains("samesite=lax"), setCookie);
    }

    @Test
    void without_a_session_or_with_a_forged_one_the_portal_shows_nothing() {
        given().contentType(ContentType.JSON).body("{\"url\":\"http://127.0.0.1:9/secret-endpoint\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201);
        String real = cookie(link(ORG));
        String forged = real.substring(0, real.length() - 2) + (real.endsWith("AA") ? "BB" : "AA");
        for (String cookie : new String[]{null, forged, "nonsense"}) {
            var request = given().redirects().follow(false);
            if (cookie != null) {
                request.cookie("hookfan-portal", cookie);
            }
            request.get("/portal/webhooks").then().statusCode(401)
                    .body(not(containsString("secret-endpoint"))).body(not(containsString(ORG)));
        }
        given().redirects().follow(false).get("/portal/enter?session=" + forged).then().statusCode(401)
                .header("Set-Cookie", (String) null);
        given().cookie("hookfan-portal", real).get("/portal/webhooks").then().statusCode(200)
                .body(containsString("secret-endpoint"));
    }

    @Test
    void another_organizations_session_reaches_none_of_its_webhooks() {
        String id = given().contentType(ContentType.JSON).body("{\"url\":\"http://127.0.0.1:9/theirs\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().path("id");
        String other = cookie(link(OTHER));
        given().cookie("hookfan-portal", other).get("/portal/webhooks").then().statusCode(200).body(not(containsString("theirs")));
        given().cookie("hookfan-portal", other).get("/portal/webhooks/{id}", id).then().statusCode(404)
                .body(not(containsString("theirs")));
        String form = formToken(other);
        given().cookie("hookfan-portal", other).formParam("formToken", form).redirects().follow(false)
                .post("/portal/webhooks/{id}/delete", id).then().statusCode(404);
        given().get("/organizations/{org}/webhooks/{id}", ORG, id).then().statusCode(200);
    }

    @Test
    void a_form_posted_without_its_sessions_form_token_changes_nothing() {
        String id = given().contentType(ContentType.JSON).body("{\"url\":\"http://127.0.0.1:9/kept\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().path("id");
        String session = cookie(link(ORG));
        String otherSessionsToken = formToken(cookie(link(ORG)));
        for (String token : new String[]{null, otherSessionsToken}) {
            var request = given().cookie("hookfan-portal", session).redirects().follow(false);
            if (token != null) {
                request.formParam("formToken", token);
            } else {
                request.formParam("nothing", "");
            }
            request.post("/portal/webhooks/{id}/delete", id).then().statusCode(403);
        }
        given().get("/organizations/{org}/webhooks/{id}", ORG, id).then().statusCode(200);
        given().cookie("hookfan-portal", session).formParam("formToken", formToken(session)).redirects().follow(false)
                .post("/portal/webhooks/{id}/delete", id).then().statusCode(303);
        given().get("/organizations/{org}/webhooks/{id}", ORG, id).then().statusCode(404);
    }

    @Test
    void pages_may_be_framed_only_by_the_configured_ancestors_and_are_never_cached() {
        String session = cookie(link(ORG));
        given().cookie("hookfan-portal", session).get("/portal/webhooks").then().statusCode(200)
                .header("Content-Security-Policy", containsString("frame-ancestors 'self'"))
                .header("Content-Security-Policy", containsString("default-src 'self'"))
                .header("Cache-Control", "no-store").header("Referrer-Policy", "no-referrer");
        for (String page : new String[]{"/portal/webhooks/new", "/portal/audit", "/portal/limits"}) {
            given().cookie("hookfan-portal", session).get(page).then().statusCode(200).body(containsString(ORG));
        }
        assertFalse(given().get("/portal-assets/portal.css").then().statusCode(200).extract().asString().contains("http"),
                "the stylesheet loads nothing from elsewhere");
    }

    @Test
    void the_organizations_webhook_limit_is_shown_on_the_form_and_its_limits_page() {
        try (Broker broker = Broker.connect()) {
            broker.publish("billing.entitlements_updated", Broker.newMessageId(), Broker.event("billing.entitlements_updated", ORG,
                    "{\"updatedAt\":\"2026-12-07T10:00:00Z\",\"limits\":{\"maxWebhooks\":1}}"));
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> given()
                .get("/organizations/{org}/entitlements", ORG).then().extract().path("limits.maxWebhooks") != null);
        given().contentType(ContentType.JSON).body("{\"url\":\"http://127.0.0.1:9/first\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201);
        String session = cookie(link(ORG));
        given().cookie("hookfan-portal", session).formParam("formToken", formToken(session))
                .formParam("url", "http://127.0.0.1:9/second").formParam("eventTypes", "*").formParam("description", "")
                .post("/portal/webhooks").then().statusCode(409)
                .body(containsString("role=\"alert\">Organization " + ORG + " already has 1 webhooks, its limit is 1"))
                .body(containsString("value=\"http://127.0.0.1:9/second\""));
        given().cookie("hookfan-portal", session).get("/portal/limits").then().statusCode(200)
                .body(containsString("&quot;maxWebhooks&quot; : 1")).body(containsString("2026-12-07 10:00:00 UTC"));
    }

    /** The form token the session's pages carry. */
    static String formToken(String session) {
        String page = given().cookie("hookfan-portal", session).get("/portal/webhooks/new").then().statusCode(200).extract().asString();
        java.util.regex.Matcher token = java.util.regex.Pattern.compile("name=\"formToken\" value=\"([^\"]+)\"").matcher(page);
        assertTrue(token.find(), page);
        return token.group(1);
    }
}
