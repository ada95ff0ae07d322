package dev.hookfan.portal;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/** The portal's pages: framed only by frame-ancestors, nothing from elsewhere, never cached, no Referer leaves. */
class PortalHeaders {

    private final PortalConfig config;

    PortalHeaders(PortalConfig config) {
        this.config = config;
    }

    @ServerResponseFilter
    public void secure(ContainerRequestContext request, ContainerResponseContext response) {
        if (!request.getUriInfo().getPath().startsWith(PortalPaths.ROOT)) {
            return;
        }
        response.getHeaders().putSingle("Content-Security-Policy", "default-src 'self'; img-src 'self' data:;"
                + " form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors " + config.frameAncestors());
        response.getHeaders().putSingle("Referrer-Policy", "no-referrer");
        response.getHeaders().putSingle("Cache-Control", "no-store");
        response.getHeaders().putSingle("X-Content-Type-Options", "nosniff");
    }
}
