package dev.hookfan.portal;

import dev.hookfan.api.Page;
import dev.hookfan.audit.AuditEntryView;
import dev.hookfan.audit.AuditService;
import dev.hookfan.entitlements.EntitlementsService;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The portal's door (a link's token becomes the session cookie) and the organization's read-only pages. */
@Path(PortalPaths.ROOT)
@Produces(MediaType.TEXT_HTML)
public class PortalPages {

    @TemplateData
    record AuditRow(String recordedAt, String eventType, String sourceMessageId, String data) {
        static AuditRow of(AuditEntryView entry) {
            return new AuditRow(PortalFormat.at(entry.recordedAt()), entry.eventType(), entry.sourceMessageId(),
                    PortalFormat.pretty(entry.data()));
        }
    }

    private final PortalSessions sessions;
    private final PortalGuard guard;
    private final PortalConfig config;
    private final AuditService audit;
    private final EntitlementsService entitlements;
    private final Template auditPage;
    private final Template limitsPage;

    PortalPages(PortalSessions sessions, PortalGuard guard, PortalConfig config, AuditService audit,
                EntitlementsService entitlements, @Location("portal/audit.html") Template auditPage,
                @Location("portal/limits.html") Template limitsPage) {
        this.sessions = sessions;
        this.guard = guard;
        this.config = config;
        this.audit = audit;
        this.entitlements = entitlements;
        this.auditPage = auditPage;
        this.limitsPage = limitsPage;
    }

    /** The link's token becomes an HttpOnly cookie for the portal's paths, and leaves the address bar at once. */
    @GET
    @Path("enter")
    @Operation(hidden = true)
    public Response enter(@QueryParam("session") String token, @Context UriInfo uri) {
        return sessions.open(token).map(session -> {
            boolean https = "https".equals(uri.getRequestUri().getScheme())
                    || config.baseUrl().map(base -> base.startsWith("https:")).orElse(false);
            boolean crossSite = "none".equalsIgnoreCase(config.cookieSameSite());
            NewCookie cookie = new NewCookie.Builder(PortalPaths.COOKIE).value(token).path(PortalPaths.ROOT)
                    .httpOnly(true).secure(https || crossSite)
                    .sameSite(crossSite ? NewCookie.SameSite.NONE : NewCookie.SameSite.LAX)
                    .maxAge((int) Math.max(1, Duration.between(Instant.now(), session.expiresAt()).toSeconds()))
                    .build();
            return Response.seeOther(java.net.URI.create(PortalPaths.WEBHOOKS)).cookie(cookie).build();
        }).orElseGet(guard::noSession);
    }

    @GET
    @Operation(hidden = true)
    public Response root(@CookieParam(PortalPaths.COOKIE) String cookie) {
        return guard.visit(cookie).isPresent() ? Response.seeOther(java.net.URI.create(PortalPaths.WEBHOOKS)).build()
                : guard.noSession();
    }

    @GET
    @Path("audit")
    @Operation(hidden = true)
    public Uni<Response> audit(@CookieParam(PortalPaths.COOKIE) String cookie, @QueryParam("after") String after) {
        return guard.page(cookie, visit -> audit.page(visit.organizationId(), null, null, 50, after)
                .map(page -> PortalGuard.ok(auditPage.data("visit", visit).data("entries", rows(page))
                        .data("next", page.next()).render())));
    }

    @GET
    @Path("limits")
    @Operation(hidden = true)
    public Uni<Response> limits(@CookieParam(PortalPaths.COOKIE) String cookie) {
        return guard.page(cookie, visit -> entitlements.get(visit.organizationId())
                .map(view -> PortalGuard.ok(limitsPage.data("visit", visit).data("limits", PortalFormat.pretty(view.limits()))
                        .data("updatedAt", view.updatedAt() == null ? null : PortalFormat.at(view.updatedAt())).render())));
    }

    private static List<AuditRow> rows(Page<AuditEntryView> page) {
        return page.items().stream().map(AuditRow::of).toList();
    }
}
