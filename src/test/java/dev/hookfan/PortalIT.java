package dev.hookfan;

import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

/** The portal's pages from the packaged application (the native executable on the native leg: templates and their data). */
@QuarkusIntegrationTest
class PortalIT {

    static final String ORG = "org_portal_it";

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

    @Test
    void a_portal_link_shows_the_endpoints_a_delivery_and_its_attempts() {
        String webhookId = given().contentType(ContentType.JSON)
                .body("{\"url\":\"" + receiver.url("/portal-it") + "\",\"eventTypes\":[\"*\"],\"description\":\"Native pages\"}")
                .post("/organizations/{org}/webhooks", ORG).then().statusCode(201).extract().path("id");
        String deliveryId = given().post("/organizations/{org}/webhooks/{id}/test", ORG, webhookId).then().statusCode(202)
                .extract().path("deliveryId");
        await().atMost(Duration.ofSeconds(15)).until(() -> "delivered".equals(given()
                .get("/organizations/{org}/deliveries/{id}", ORG, deliveryId).then().extract().path("status")));

        String link = given().post("/organizations/{org}/portal-sessions", ORG).then().statusCode(201).extract().path("url");
        String session = given().redirects().follow(false).get(link).then().statusCode(303).extract().cookie("hookfan-portal");
        given().cookie("hookfan-portal", session).get("/portal/webhooks").then().statusCode(200)
                .body(containsString(receiver.url("/portal-it"))).body(containsString("Native pages"))
                .body(containsString("last success"));
        given().cookie("hookfan-portal", session).get("/portal/webhooks/{id}", webhookId).then().statusCode(200)
                .body(containsString("status-delivered")).body(containsString(deliveryId.substring(0, 12)));
        given().cookie("hookfan-portal", session).get("/portal/deliveries/{id}", deliveryId).then().statusCode(200)
                .body(containsString("webhook.test")).body(containsString("answered 200"));
        given().cookie("hookfan-portal", session).get("/portal/audit").then().statusCode(200);
        given().cookie("hookfan-portal", session).get("/portal/limits").then().statusCode(200)
                .body(containsString("maxWebhooks"));
    }
}
