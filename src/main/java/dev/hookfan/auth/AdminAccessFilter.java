package dev.hookfan.auth;

import dev.hookfan.api.Problem;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The operator API (/admin/**) takes a bearer JWT whose groups claim holds hookfan.auth.admin-role: no token is a 401,
 * an organization's token a 403. Like the organization API, open when hookfan.auth.enabled is false.
 */
public class AdminAccessFilter {

    private final AuthConfig config;
    private final CurrentIdentityAssociation identities;

    AdminAccessFilter(AuthConfig config, CurrentIdentityAssociation identities) {
        this.config = config;
        this.identities = identities;
    }

    @ServerRequestFilter
    public Uni<Response> checkAdmin(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!config.enabled() || !(path.equals("/admin") || path.startsWith("/admin/"))) {
            return Uni.createFrom().nullItem();
        }
        return identities.getDeferredIdentity().map(identity -> {
            if (identity.isAnonymous()) {
                return OrganizationAccessFilter.unauthorized("A bearer token is required");
            }
            return identity.hasRole(config.adminRole()) ? null : Problem.of(Response.Status.FORBIDDEN, "forbidden",
                    "The operator API needs a token with the role " + config.adminRole() + " in its groups claim").toResponse();
        });
    }
}
