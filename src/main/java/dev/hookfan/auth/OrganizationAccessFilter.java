package dev.hookfan.auth;

import dev.hookfan.api.NotFound;
import dev.hookfan.api.Problem;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A token may act on /organizations/{X}/** only if X is in its organization claim. Another organization's
 * resources answer 404 with the body of a resource that does not exist, so existence is not leaked.
 */
public class OrganizationAccessFilter {

    private final AuthConfig config;
    private final CurrentIdentityAssociation identities;

    OrganizationAccessFilter(AuthConfig config, CurrentIdentityAssociation identities) {
        this.config = config;
        this.identities = identities;
    }

    @ServerRequestFilter
    public Uni<Response> checkOrganization(ContainerRequestContext request) {
        String organizationId = request.getUriInfo().getPathParameters().getFirst("organizationId");
        if (!config.enabled() || organizationId == null) {
            return Uni.createFrom().nullItem();
        }
        return identities.getDeferredIdentity().map(identity -> {
            if (identity.isAnonymous()) {
                return unauthorized("A bearer token is required");
            }
            return organizations(identity).contains(organizationId) ? null : notFound(request);
        });
    }

    @ServerExceptionMapper
    public Response invalidToken(AuthenticationFailedException e) {
        return unauthorized("The bearer token is invalid or expired");
    }

    private Set<String> organizations(SecurityIdentity identity) {
        if (!(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Set.of();
        }
        Object claim = token.getClaim(config.organizationClaim());
        if (claim instanceof JsonString text) {
            return Set.of(text.getString());
        }
        if (claim instanceof String text) {
            return Set.of(text);
        }
        if (claim instanceof JsonArray array) {
            return array.stream().filter(value -> value.getValueType() == JsonValue.ValueType.STRING)
                    .map(value -> ((JsonString) value).getString()).collect(Collectors.toSet());
        }
        if (claim instanceof Collection<?> values) {
            return values.stream().map(value -> value instanceof JsonString text ? text.getString() : String.valueOf(value))
                    .collect(Collectors.toSet());
        }
        return Set.of();
    }

    /** 401 with WWW-Authenticate: Bearer, for every API that takes a token. */
    static Response unauthorized(String detail) {
        Response problem = Problem.of(Response.Status.UNAUTHORIZED, "unauthorized", detail).toResponse();
        return Response.fromResponse(problem).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").build();
    }

    /** The same 404 the resource itself gives for an id that does not exist. */
    private static Response notFound(ContainerRequestContext request) {
        return NotFound.of(request.getUriInfo().getPathParameters()).toResponse();
    }
}
