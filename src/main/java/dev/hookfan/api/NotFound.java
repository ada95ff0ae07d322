package dev.hookfan.api;

import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;

/** The one 404 body per kind of resource: a missing id and another organization's id look the same. */
public final class NotFound {

    private NotFound() {
    }

    public static ApiException webhook() {
        return ApiException.notFound("No such webhook in this organization");
    }

    public static ApiException delivery() {
        return ApiException.notFound("No such delivery in this organization");
    }

    /** What the resource behind these path parameters would answer for an id it does not have. */
    public static Problem of(MultivaluedMap<String, String> pathParameters) {
        if (pathParameters.containsKey("deliveryId")) {
            return delivery().problem();
        }
        if (pathParameters.containsKey("id") || pathParameters.containsKey("webhookId")) {
            return webhook().problem();
        }
        return Problem.of(Response.Status.NOT_FOUND, "not-found", "No such resource in this organization");
    }
}
