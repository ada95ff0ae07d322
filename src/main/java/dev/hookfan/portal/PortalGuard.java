package dev.hookfan.portal;

import dev.hookfan.api.ApiException;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every portal page goes through here: the session cookie names the organization, or the page is a 401 that shows
 * nothing of any organization; a form must carry its session's form token. An API error becomes a page that says it.
 */
@Singleton
class PortalGuard {

    /** What every page knows: whose portal it is, and the token its forms carry. */
    @io.quarkus.qute.TemplateData
    record Visit(String organizationId, String formToken) {
    }

    private final PortalSessions sessions;
    private final Template message;

    PortalGuard(PortalSessions sessions, @Location("portal/message.html") Template message) {
        this.sessions = sessions;
        this.message = message;
    }

    Optional<Visit> visit(String cookie) {
        return sessions.open(cookie).map(session -> new Visit(session.organizationId(), sessions.formToken(cookie)));
    }

    /** A page for the session's organization. */
    Uni<Response> page(String cookie, Function<Visit, Uni<Response>> page) {
        Optional<Visit> visit = visit(cookie);
        if (visit.isEmpty()) {
            return Uni.createFrom().item(noSession());
        }
        return Uni.createFrom().deferred(() -> page.apply(visit.get()))
                .onFailure(ApiException.class).recoverWithItem(failure -> problem(visit.get(), (ApiException) failure));
    }

    /** A form's post: also refused unless it carries the session's form token. */
    Uni<Response> form(String cookie, String formToken, Function<Visit, Uni<Response>> action) {
        return page(cookie, visit -> formToken != null && MessageDigest.isEqual(
                visit.formToken().getBytes(StandardCharsets.UTF_8), formToken.getBytes(StandardCharsets.UTF_8))
                ? action.apply(visit)
                : Uni.createFrom().item(html(403, message.data("visit", visit)
                        .data("title", "This form has expired").data("text", "Reload the page and try again.").render())));
    }

    Response noSession() {
        return html(401, message.data("visit", null).data("title", "This portal link is not valid")
                .data("text", "It may have expired. Open the portal again from the product that sent you here.").render());
    }

    Response problem(Visit visit, ApiException failure) {
        return html(failure.problem().status(), message.data("visit", visit)
                .data("title", failure.problem().title()).data("text", failure.problem().detail()).render());
    }

    static Response html(int status, String body) {
        return Response.status(status).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).entity(body).build();
    }

    static Response ok(String body) {
        return html(200, body);
    }

    /** After a successful post, the page to show next (so a reload does not post again). */
    static Response seeOther(String path, Map<String, String> query) {
        StringBuilder location = new StringBuilder(path);
        query.forEach((name, value) -> location.append(location.indexOf("?") < 0 ? '?' : '&').append(name).append('=')
                .append(java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8)));
        return Response.seeOther(java.net.URI.create(location.toString())).build();
    }
}
