package dev.hookfan.api;

import jakarta.ws.rs.core.Response;

/** 429: the caller asked for more than its share; Retry-After says when the next one will be taken. */
public class RateLimited extends ApiException {

    private final long retryAfterSeconds;

    public RateLimited(String slug, String detail, long retryAfterSeconds) {
        super(Problem.of(Response.Status.TOO_MANY_REQUESTS, slug, detail));
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    public Response toResponse() {
        return Response.fromResponse(problem().toResponse()).header("Retry-After", Long.toString(retryAfterSeconds)).build();
    }
}
