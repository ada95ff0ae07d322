package dev.hookfan.api;

import jakarta.ws.rs.core.Response;

/** An expected, client-caused error with its problem type. */
public class ApiException extends RuntimeException {

    private final Problem problem;

    public ApiException(Problem problem) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
    }

    public static ApiException notFound(String detail) {
        return new ApiException(Problem.of(Response.Status.NOT_FOUND, "not-found", detail));
    }

    public static ApiException conflict(String slug, String detail) {
        return new ApiException(Problem.of(Response.Status.CONFLICT, slug, detail));
    }

    public Problem problem() {
        return problem;
    }
}
