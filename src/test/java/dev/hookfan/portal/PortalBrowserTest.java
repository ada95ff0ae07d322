package dev.hookfan.portal;

import com.standardwebhooks.Webhook;
import dev.hookfan.support.Browser;
import dev.hookfan.support.Database;
import dev.hookfan.support.Receiver;
import dev.hookfan.support.Receiver.Answer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The portal's journeys in a real headless Chromium, as an endpoint's owner would walk them from a link their
 * product handed out. Run with -Dhookfan.screenshots=docs/portal to refresh the screenshots in docs/.
 */
@QuarkusTest
class PortalBrowserTest {

    static final String ORG = "org_browser";
    static final String OTHER = "org_browser_other";
    static Browser browser;

    @TestHTTPResource("/")
    URL service;
    Receiver receiver;

    @BeforeEach
    void start() {
        Database.reset();
        receiver = Receiver.start();
        if (browser == null) {
            // One browser for the class: a journey opens its own link, which replaces the session cookie.
            browser = Browser.open(service.toString());
        }
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    static String link(String organizationId) {
        return given().post("/organizations/{org}/portal-sessions", organizationId).then().statusCode(201).extract().path("url");
    }

    String apiWebhook(String organizationId, String path) {
        return given().contentType(ContentType.JSON).body("{\"url\":\"" + receiver.url(path) + "\",\"eventTypes\":[\"*\"]}")
                .post("/organizations/{org}/webhooks", organizationId).then().statusCode(201).extract().path("id");
    }

    @Test
    void an_owner_adds_an_endpoint_sends_a_test_and_sees_it_delivered_signed_with_the_secret_shown() {
        browser.go(link(ORG));
        assertEquals("/portal/webhooks", browser.path());
        assertFalse(browser.url().contains("session"), "the link's token leaves the address bar");

        browser.clickLink("Add an endpoint");
        browser.type("#url", receiver.url("/orders"));
        browser.type("#eventTypes", "*");
        browser.type("#description", "Orders service");
        browser.screenshot("new-endpoint");
        browser.click("form.card button[type=submit]");
        String secret = browser.find("#secret").getText();
        assertTrue(secret.startsWith("whsec_"), secret);

        browser.clickLink("Go to the endpoint");
        browser.click("#send-test");
        assertTrue(browser.text().contains("A webhook.test event is on its way"), browser.text());
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/orders").size() == 1);
        Receiver.Request request = receiver.requests("/orders").get(0);
        Map<String, List<String>> headers = request.headers().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, header -> List.of(header.getValue())));
        assertDoesNotThrow(() -> new Webhook(secret).verify(request.body(), headers));

        browser.reloadUntil(Duration.ofSeconds(10), page -> page.all("#deliveries .status-delivered").size() == 1);
        browser.screenshot("endpoint");
        browser.click("#deliveries a");
        assertTrue(browser.find("#body").getText().contains("\"type\" : \"webhook.test\""), browser.find("#body").getText());
        assertTrue(browser.find("#attempts").getText().contains("200"), browser.find("#attempts").getText());
        browser.screenshot("delivery");

        browser.clickLink("Endpoints");
        assertTrue(browser.find("#webhooks").getText().contains(receiver.url("/orders")));
        assertTrue(browser.find("#webhooks").getText().contains("last success"), browser.find("#webhooks").getText());
        browser.screenshot("endpoints");
        browser.resize(390, 844);
        browser.screenshot("endpoints-phone");
        browser.resize(1280, 900);
    }

    @Test
    void an_owner_opens_a_failed_delivery_reads_the_answer_sends_it_again_and_recovers_the_rest() {
        String webhookId = apiWebhook(ORG, "/flaky");
        // Two test deliveries, four attempts each on the test schedule, all answered 500; then the subscriber is back.
        receiver.script("/flaky", java.util.Collections.nCopies(8, Answer.status(500)).toArray(Answer[]::new));
        given().post("/organizations/{org}/webhooks/{id}/test", ORG, webhookId).then().statusCode(202);
        given().post("/organizations/{org}/webhooks/{id}/test", ORG, webhookId).then().statusCode(202);
        await().atMost(Duration.ofSeconds(20)).until(() -> given().get("/organizations/{org}/webhooks/{id}/deliveries?status=failed",
                ORG, webhookId).then().extract().<List<?>>path("items").size() == 2);

        browser.go(link(ORG));
        assertTrue(browser.find("#webhooks").getText().contains("failing since"), browser.find("#webhooks").getText());
        browser.clickLink(receiver.url("/flaky"));
        new org.openqa.selenium.support.ui.Select(browser.find("#status")).selectByVisibleText("failed");
        browser.click("form.inline button");
        assertTrue(browser.url().contains("status=failed"));
        assertEquals(2, browser.all("#deliveries tbody tr").size());
        List<String> newestFirst = given().get("/organizations/{org}/webhooks/{id}/deliveries?order=newest", ORG, webhookId)
                .then().extract().path("items.id");
        assertTrue(browser.all("#deliveries a").get(0).getAttribute("href").endsWith(newestFirst.get(0)), "newest first");
        browser.click("#deliveries a");
        assertEquals("failed", browser.find("#delivery-status").getText());
        assertTrue(browser.find("#attempts").getText().contains("answered 500"), browser.find("#attempts").getText());
        browser.screenshot("failed-delivery");

        browser.click("#send-again");
        assertTrue(browser.text().contains("Sent again"), browser.text());
        browser.reloadUntil(Duration.ofSeconds(10), page -> page.find("#delivery-status").getText().equals("delivered"));

        browser.go("/portal/webhooks/" + webhookId);
        String anHourAgo = java.time.LocalDateTime.now(java.time.ZoneOffset.UTC).minusHours(1)
                .truncatedTo(java.time.temporal.ChronoUnit.MINUTES).toString();
        ((org.openqa.selenium.JavascriptExecutor) browser.driver())
                .executeScript("document.getElementById('since').value = arguments[0]", anHourAgo);
        browser.click("#recover");
        assertTrue(browser.text().contains("1 failed deliveries are being sent again."), browser.text());
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/flaky").size() == 10);
        browser.reloadUntil(Duration.ofSeconds(10), page -> page.all("#deliveries .status-delivered").size() == 2);
    }

    @Test
    void an_owner_edits_disables_and_deletes_an_endpoint() {
        String webhookId = apiWebhook(ORG, "/edited");
        browser.go(link(ORG));
        browser.go("/portal/webhooks/" + webhookId);
        browser.type("#description", "Invoices");
        browser.type("#eventTypes", "billing.invoice_paid, billing.invoice_voided");
        browser.find("#enabled").click();
        browser.click("#save");
        assertTrue(browser.text().contains("The webhook was saved."), browser.text());
        given().get("/organizations/{org}/webhooks/{id}", ORG, webhookId).then().statusCode(200)
                .body("description", org.hamcrest.Matchers.equalTo("Invoices"))
                .body("eventTypes", org.hamcrest.Matchers.contains("billing.invoice_paid", "billing.invoice_voided"))
                .body("enabled", org.hamcrest.Matchers.is(false));
        browser.clickLink("Endpoints");
        assertTrue(browser.find("#webhooks").getText().contains("disabled"), browser.find("#webhooks").getText());

        browser.go("/portal/webhooks/" + webhookId);
        browser.type("#eventTypes", "Not.A.Type");
        browser.click("#save");
        assertTrue(browser.find("#eventTypes-error").getText().length() > 0);
        assertEquals("Not.A.Type", browser.find("#eventTypes").getAttribute("value"));

        browser.go("/portal/webhooks/" + webhookId);
        browser.clickLink("Delete…");
        browser.click("button.danger");
        assertTrue(browser.text().contains("The webhook was deleted."), browser.text());
        given().get("/organizations/{org}/webhooks/{id}", ORG, webhookId).then().statusCode(404);
    }

    @Test
    void an_owner_rotates_the_secret_and_the_next_delivery_verifies_with_the_new_one() {
        String webhookId = apiWebhook(ORG, "/rotated");
        browser.go(link(ORG));
        browser.go("/portal/webhooks/" + webhookId);
        browser.click("#reveal-secret");
        String before = browser.find("#secret").getText();
        browser.clickLink("Go to the endpoint");
        browser.click("#rotate-secret");
        String after = browser.find("#secret").getText();
        assertNotEquals(before, after);
        assertTrue(browser.text().contains("previous secret keeps signing"), browser.text());

        browser.clickLink("Go to the endpoint");
        browser.click("#send-test");
        await().atMost(Duration.ofSeconds(10)).until(() -> receiver.requests("/rotated").size() == 1);
        Receiver.Request request = receiver.requests("/rotated").get(0);
        Map<String, List<String>> headers = request.headers().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, header -> List.of(header.getValue())));
        assertDoesNotThrow(() -> new Webhook(after).verify(request.body(), headers));
    }

    @Test
    void what_the_api_refuses_is_shown_next_to_the_field_and_the_form_keeps_what_was_typed() {
        browser.go(link(ORG));
        browser.go("/portal/webhooks/new");
        browser.type("#url", "http://no-such-host.invalid/hooks");
        browser.type("#description", "typed by hand");
        // The keyboard alone: Enter in a field submits its form.
        browser.submitWithEnter("#description");
        assertTrue(browser.find("#url-error").getText().contains("does not resolve to a public address"),
                browser.find("#url-error").getText());
        assertEquals("true", browser.find("#url").getAttribute("aria-invalid"));
        assertEquals("typed by hand", browser.find("#description").getAttribute("value"));
        browser.screenshot("refused-url");

        browser.type("#url", "ftp://example.com/hooks");
        browser.click("form.card button[type=submit]");
        assertTrue(browser.find("#url-error").getText().contains("http"), browser.find("#url-error").getText());

        String webhookId = apiWebhook(ORG, "/recover");
        browser.go("/portal/webhooks/" + webhookId);
        ((org.openqa.selenium.JavascriptExecutor) browser.driver())
                .executeScript("document.getElementById('since').value = '2020-01-01T00:00'");
        browser.click("#recover");
        assertTrue(browser.find("#since-error").getText().contains("days ago"), browser.find("#since-error").getText());
        given().get("/organizations/{org}/webhooks", ORG).then().body("items.size()", org.hamcrest.Matchers.is(1));
    }

    @Test
    void another_organizations_link_shows_none_of_this_organizations_endpoints_or_deliveries() {
        String webhookId = apiWebhook(ORG, "/private-endpoint");
        String deliveryId = given().post("/organizations/{org}/webhooks/{id}/test", ORG, webhookId).then().statusCode(202)
                .extract().path("deliveryId");

        browser.go(link(OTHER));
        assertFalse(browser.source().contains("private-endpoint"));
        assertTrue(browser.text().contains("No endpoints yet"), browser.text());
        browser.go("/portal/webhooks/" + webhookId);
        assertFalse(browser.source().contains("private-endpoint"));
        browser.go("/portal/deliveries/" + deliveryId);
        assertFalse(browser.source().contains("private-endpoint"));
        assertFalse(browser.source().contains(ORG + "\""));

        String forged = link(ORG).replaceFirst("session=.", "session=x");
        browser.go(forged);
        assertTrue(browser.text().contains("This portal link is not valid"), browser.text());
        browser.go("/portal/webhooks");
        assertFalse(browser.source().contains("private-endpoint"), "the forged link did not replace the other session's cookie");
    }
}
