package dev.hookfan.home;

import io.quarkus.qute.Template;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** The first thing a person opens: what this is and where to go next, with nothing loaded from elsewhere. */
@Path("/")
public class HomeResource {

    private final Template home;
    private final String version;
    private final int managementPort;

    HomeResource(Template home, @ConfigProperty(name = "quarkus.application.version") String version,
                 @ConfigProperty(name = "quarkus.management.port") int managementPort) {
        this.home = home;
        this.version = version;
        this.managementPort = managementPort;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response page(@Context UriInfo request) {
        // The API document and health live on the management interface: same host, its own port.
        String management = request.getBaseUri().getScheme() + "://" + request.getBaseUri().getHost() + ":" + managementPort;
        return Response.ok(home.data("version", version).data("management", management).render())
                .header("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
                .header("X-Content-Type-Options", "nosniff")
                .build();
    }
}
