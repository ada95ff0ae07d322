package dev.hookfan.support;

import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;

/** An organization's webhook, created over the API as its owner would: the one way the tests make one. */
public final class Webhooks {

    private Webhooks() {
    }

    /**
     * Creates it with these JSON members beside its URL (e.g. {@code "\"enabled\":false"}), every event type unless
     * one of them names {@code eventTypes}, and answers its id.
     */
    public static String create(String organization, String url, String... members) {
        return create(given(), organization, url, members);
    }

    /** The same, as the caller given (a bearer token when the API checks them). */
    public static String create(RequestSpecification as, String organization, String url, String... members) {
        return created(as, organization, url, members).path("id");
    }

    /** The same, answering the whole 201 (its {@code secret} is shown once, at creation). */
    public static ExtractableResponse<Response> created(RequestSpecification as, String organization, String url, String... members) {
        boolean typed = Arrays.stream(members).anyMatch(member -> member.trim().startsWith("\"eventTypes\""));
        String body = Stream.concat(Stream.of("\"url\":\"" + url + "\"", typed ? null : "\"eventTypes\":[\"*\"]"), Arrays.stream(members))
                .filter(member -> member != null && !member.isBlank())
                .collect(Collectors.joining(",", "{", "}"));
        return as.contentType(ContentType.JSON).body(body)
                .post("/organizations/{org}/webhooks", organization).then().statusCode(201).extract();
    }
}
