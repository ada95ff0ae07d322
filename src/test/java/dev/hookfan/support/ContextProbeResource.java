package dev.hookfan.support;

import dev.hookfan.events.IntegrationEventContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

import java.util.Map;

/** Test-only endpoint: what IntegrationEventContext holds inside an HTTP request. */
@Path("/test-support/context")
public class ContextProbeResource {

    @Inject
    IntegrationEventContext context;

    @GET
    public Map<String, Object> context() {
        return Map.of("hasMessageId", context.messageId().isPresent());
    }
}
