package dev.hookfan.api;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.URL;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.notNullValue;

@QuarkusTest
class OpenApiDocumentTest {

    @TestHTTPResource(value = "/openapi", management = true)
    URL openapi;

    @Test
    void should_document_the_per_webhook_sending_settings_and_the_manual_send_limit() {
        given().accept("application/json").get(openapi).then().statusCode(200)
                .body("components.schemas.WebhookRequest.properties", hasKey("rateLimit"))
                .body("components.schemas.WebhookRequest.properties", hasKey("timeout"))
                .body("components.schemas.WebhookRequest.properties", hasKey("headers"))
                .body("paths.'/organizations/{organizationId}/webhooks'.post.requestBody.content.'application/json'.schema.'$ref'",
                        equalTo("#/components/schemas/WebhookRequest"))
                .body("components.schemas.WebhookView.properties", hasKey("rateLimit"))
                .body("paths.'/organizations/{organizationId}/webhooks/{webhookId}/test'.post.responses.'429'", notNullValue())
                .body("paths.'/organizations/{organizationId}/deliveries/{deliveryId}/redeliver'.post.responses.'429'", notNullValue());
    }

    @Test
    void should_document_bulk_recovery_and_the_409_of_a_stale_webhook_update() {
        given().accept("application/json").get(openapi).then().statusCode(200)
                .body("paths.'/organizations/{organizationId}/webhooks/{webhookId}/recover'.post.requestBody.content.'application/json'.schema.'$ref'",
                        equalTo("#/components/schemas/RecoverRequest"))
                .body("components.schemas.RecoverRequest.properties", hasKey("since"))
                .body("components.schemas.RecoverRequest.properties", hasKey("until"))
                .body("paths.'/organizations/{organizationId}/webhooks/{webhookId}/recover'.post.responses.'400'", notNullValue())
                .body("paths.'/organizations/{organizationId}/webhooks/{id}'.put.responses.'409'", notNullValue())
                .body("paths.'/organizations/{organizationId}/webhooks/{id}'.patch.responses.'409'", notNullValue());
    }

    @Test
    void should_document_portal_sessions_and_leave_the_portals_pages_out() {
        given().accept("application/json").get(openapi).then().statusCode(200)
                .body("paths.'/organizations/{organizationId}/portal-sessions'.post.responses.'201'.content.'application/json'.schema.'$ref'",
                        equalTo("#/components/schemas/PortalSessionView"))
                .body("components.schemas.PortalSessionView.properties", hasKey("url"))
                .body("components.schemas.PortalSessionView.properties", hasKey("expiresAt"))
                .body("paths", org.hamcrest.Matchers.not(hasKey("/portal/webhooks")));
    }
}
