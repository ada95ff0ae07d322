package dev.hookfan.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.ws.rs.core.Response;

import java.util.List;

/** RFC 9457 problem details: the body of every error response. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_BASE = "https://hookfan.dev/problems/";

    public static Problem of(Response.StatusType status, String slug, String detail) {
        return new Problem(TYPE_BASE + slug, status.getReasonPhrase(), status.getStatusCode(), detail, null);
    }

    public static Problem invalid(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " fields are invalid";
        return new Problem(TYPE_BASE + "validation", "Bad Request", 400, detail, List.copyOf(errors));
    }

    /** 422: well-formed, but refused for what it points at (a webhook URL's address). */
    public static Problem unprocessable(String slug, FieldError error) {
        return new Problem(TYPE_BASE + slug, "Unprocessable Content", 422, error.field() + ": " + error.message(),
                List.of(error));
    }

    public Response toResponse() {
        return Response.status(status).type(MEDIA_TYPE).entity(this).build();
    }

    @RegisterForReflection
    public record FieldError(String field, String message) {
    }
}
