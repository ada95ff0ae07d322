package dev.hookfan.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.List;
import java.util.stream.Collectors;

/** Turns every failure into application/problem+json; bad input never becomes a 500. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response api(ApiException e) {
        return e instanceof RateLimited limited ? limited.toResponse() : e.problem().toResponse();
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            String field = mapping.getPath().stream()
                    .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                    .collect(Collectors.joining(".")).replace(".[", "[");
            return Problem.invalid(List.of(new Problem.FieldError(field, "has the wrong type or format"))).toResponse();
        }
        return Problem.of(Response.Status.BAD_REQUEST, "malformed-json",
                "The request body is not valid JSON: " + e.getOriginalMessage()).toResponse();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        if (e.getCause() instanceof JsonProcessingException json) {
            return json(json);
        }
        Response.StatusType status = e.getResponse().getStatusInfo();
        String slug = status.getReasonPhrase().toLowerCase().replaceAll("[^a-z0-9]+", "-");
        return Problem.of(status, slug, e.getMessage() == null ? status.getReasonPhrase() : e.getMessage()).toResponse();
    }

    @ServerExceptionMapper
    public Response unexpected(RuntimeException e) {
        LOG.error("Unexpected error while serving a request", e);
        return Problem.of(Response.Status.INTERNAL_SERVER_ERROR, "internal",
                "An unexpected error occurred; nothing was changed.").toResponse();
    }
}
