package dev.hookfan.api;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Answers an announced over-size body with a 413 problem before any of it is read. */
@ApplicationScoped
public class BodyLimit {

    private final long maxBodySize;

    BodyLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize) {
        this.maxBodySize = maxBodySize.asLongValue();
    }

    void install(@Observes Router router) {
        router.route().order(-1000).handler(context -> {
            String length = context.request().getHeader("Content-Length");
            if (length != null && length.chars().allMatch(Character::isDigit) && length.length() < 19
                    && Long.parseLong(length) > maxBodySize) {
                Problem problem = Problem.of(Response.Status.REQUEST_ENTITY_TOO_LARGE, "body-too-large",
                        "The request body is " + length + " bytes; the limit is " + maxBodySize + " bytes");
                context.response().setStatusCode(413).putHeader("Content-Type", Problem.MEDIA_TYPE)
                        .putHeader("Connection", "close").end(Json.encode(problem));
                return;
            }
            context.next();
        });
    }
}
