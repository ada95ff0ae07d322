package dev.hookfan.support;

import io.restassured.response.Response;

import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;

/** Follows a listing's {@code next} cursor to its end, as a client would. */
public final class Pages {

    /** The ids of every item, in the order the pages gave them, and how many pages it took. */
    public record Walked(List<String> ids, int pages) {
    }

    private Pages() {
    }

    public static Walked walk(int limit, String path, Object... pathParameters) {
        List<String> ids = new ArrayList<>();
        String after = null;
        int pages = 0;
        do {
            var request = given().queryParam("limit", limit);
            if (after != null) {
                request.queryParam("after", after);
            }
            Response page = request.get(path, pathParameters).then().statusCode(200).extract().response();
            ids.addAll(page.path("items.id"));
            after = page.path("next");
            pages++;
        } while (after != null);
        return new Walked(ids, pages);
    }
}
