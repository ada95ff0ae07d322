package dev.hookfan.home;

import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;

/** The first page a person opens says what Hookfan is, which version runs, and where the API, docs and health are. */
@QuarkusTest
class HomePageTest {

    @Test
    void should_answer_the_root_with_a_page_that_says_what_this_is_and_where_to_go() {
        String version = ConfigProvider.getConfig().getValue("quarkus.application.version", String.class);
        given().get("/").then().statusCode(200)
                .contentType(startsWith("text/html"))
                .header("Content-Security-Policy", containsString("default-src 'none'"))
                .body(containsString("<title>Hookfan " + version + "</title>"))
                .body(containsString("exactly one delivery per"))
                .body(containsString(":" + ConfigProvider.getConfig().getValue("quarkus.management.port", String.class) + "/q/openapi\""))
                .body(containsString("/q/health/ready"))
                .body(containsString("POST /organizations/{org}/portal-sessions"));
    }
}
