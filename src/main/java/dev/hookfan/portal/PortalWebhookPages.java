package dev.hookfan.portal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hookfan.api.ApiException;
import dev.hookfan.api.Cursor;
import dev.hookfan.api.Page;
import dev.hookfan.deliveries.DeliveryService;
import dev.hookfan.deliveries.DeliveryStatus;
import dev.hookfan.deliveries.DeliveryView;
import dev.hookfan.deliveries.ManualSendService;
import dev.hookfan.webhooks.WebhookService;
import dev.hookfan.webhooks.WebhookView;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.util.List;
import java.util.Map;

/**
 * The organization's webhooks: list, create, edit, delete, secret, test, recovery, and each one's deliveries. Every
 * change goes through the API's own services, with the session's organization, so the portal can do exactly what the
 * organization's token can, and refuses what the API refuses, with the API's words next to the field.
 */
@Path(PortalPaths.WEBHOOKS)
@Produces(MediaType.TEXT_HTML)
public class PortalWebhookPages {

    @TemplateData
    record DeliveryRow(String id, String shortId, String eventType, String status, int attempts, String createdAt,
                       String lastError) {
        static DeliveryRow of(DeliveryView delivery) {
            return new DeliveryRow(delivery.id(), delivery.id().substring(0, Math.min(12, delivery.id().length())),
                    delivery.eventType(), delivery.status().name(), delivery.attempts(), PortalFormat.at(delivery.createdAt()),
                    delivery.lastError() == null ? "" : delivery.lastError());
        }
    }

    private static final Map<String, String> DONE = Map.of(
            "created", "The webhook was created.",
            "updated", "The webhook was saved.",
            "test", "A webhook.test event is on its way; it shows below in a moment.",
            "deleted", "The webhook was deleted. Its deliveries stay readable through the API.");

    private final PortalGuard guard;
    private final WebhookService webhooks;
    private final DeliveryService deliveries;
    private final ManualSendService manualSends;
    private final WebhookHealth health;
    private final Template listPage;
    private final Template formPage;
    private final Template webhookPage;
    private final Template secretPage;
    private final Template deletePage;

    PortalWebhookPages(PortalGuard guard, WebhookService webhooks, DeliveryService deliveries,
                       ManualSendService manualSends, WebhookHealth health,
                       @Location("portal/webhooks.html") Template listPage, @Location("portal/webhook-new.html") Template formPage,
                       @Location("portal/webhook.html") Template webhookPage, @Location("portal/secret.html") Template secretPage,
                       @Location("portal/webhook-delete.html") Template deletePage) {
        this.guard = guard;
        this.webhooks = webhooks;
        this.deliveries = deliveries;
        this.manualSends = manualSends;
        this.health = health;
        this.listPage = listPage;
        this.formPage = formPage;
        this.webhookPage = webhookPage;
        this.secretPage = secretPage;
        this.deletePage = deletePage;
    }

    @GET
    @Operation(hidden = true)
    public Uni<Response> list(@CookieParam(PortalPaths.COOKIE) String cookie, @QueryParam("done") String done) {
        return guard.page(cookie, visit -> webhooks.list(visit.organizationId(), null, 200)
                .chain(page -> health.of(page.items()))
                .map(rows -> PortalGuard.ok(listPage.data("visit", visit).data("webhooks", rows)
                        .data("done", DONE.get(String.valueOf(done))).render())));
    }

    @GET
    @Path("new")
    @Operation(hidden = true)
    public Uni<Response> newForm(@CookieParam(PortalPaths.COOKIE) String cookie) {
        return guard.page(cookie, visit -> Uni.createFrom().item(PortalGuard.ok(form(visit, WebhookForm.empty(), FormErrors.NONE))));
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> create(@CookieParam(PortalPaths.COOKIE) String cookie, MultivaluedMap<String, String> posted) {
        WebhookForm form = WebhookForm.posted(posted);
        return guard.form(cookie, posted.getFirst("formToken"), visit -> webhooks.create(visit.organizationId(), form.json(false))
                .map(created -> secret(visit, created, created.secret(), Shown.CREATED))
                .onFailure(ApiException.class).recoverWithItem(failure -> PortalGuard.html(((ApiException) failure).problem().status(),
                        form(visit, form, FormErrors.of(((ApiException) failure).problem())))));
    }

    @GET
    @Path("{id}")
    @Operation(hidden = true)
    public Uni<Response> webhook(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id,
                                 @QueryParam("status") String status, @QueryParam("after") String after,
                                 @QueryParam("done") String done, @QueryParam("requeued") Integer requeued) {
        String message = requeued != null ? requeued + " failed deliveries are being sent again." : DONE.get(String.valueOf(done));
        return guard.page(cookie, visit -> webhooks.get(visit.organizationId(), id)
                .chain(webhook -> page(visit, webhook, WebhookForm.of(webhook), status, after, message, FormErrors.NONE, 200)));
    }

    @POST
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> update(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id,
                                MultivaluedMap<String, String> posted) {
        WebhookForm form = WebhookForm.posted(posted);
        return guard.form(cookie, posted.getFirst("formToken"), visit -> webhooks.patch(visit.organizationId(), id, form.json(true))
                .map(saved -> PortalGuard.seeOther(PortalPaths.WEBHOOKS + "/" + id, Map.of("done", "updated")))
                .onFailure(failure -> failure instanceof ApiException api && api.problem().status() != 404)
                .recoverWithUni(failure -> webhooks.get(visit.organizationId(), id).chain(webhook -> page(visit, webhook,
                        form, null, null, null, FormErrors.of(((ApiException) failure).problem()),
                        ((ApiException) failure).problem().status()))));
    }

    @GET
    @Path("{id}/delete")
    @Operation(hidden = true)
    public Uni<Response> confirmDelete(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id) {
        return guard.page(cookie, visit -> webhooks.get(visit.organizationId(), id)
                .map(webhook -> PortalGuard.ok(deletePage.data("visit", visit).data("webhook", webhook).render())));
    }

    @POST
    @Path("{id}/delete")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> delete(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id,
                                @FormParam("formToken") String formToken) {
        return guard.form(cookie, formToken, visit -> webhooks.delete(visit.organizationId(), id)
                .map(deleted -> PortalGuard.seeOther(PortalPaths.WEBHOOKS, Map.of("done", "deleted"))));
    }

    @POST
    @Path("{id}/secret")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> reveal(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id,
                                @FormParam("formToken") String formToken) {
        return guard.form(cookie, formToken, visit -> webhooks.get(visit.organizationId(), id)
                .chain(webhook -> webhooks.secret(visit.organizationId(), id)
                        .map(secret -> secret(visit, webhook, secret, Shown.REVEALED))));
    }

    @POST
    @Path("{id}/secret/rotate")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> rotate(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id,
                                @FormParam("formToken") String formToken) {
        return guard.form(cookie, formToken, visit -> webhooks.rotateSecret(visit.organizationId(), id)
                .chain(secret -> webhooks.get(visit.organizationId(), id)
                        .map(webhook -> secret(visit, webhook, secret, Shown.ROTATED))));
    }

    @POST
    @Path("{id}/test")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> test(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id,
                              @FormParam("formToken") String formToken) {
        return guard.form(cookie, formToken, visit -> manualSends.test(visit.organizationId(), id)
                .map(sent -> PortalGuard.seeOther(PortalPaths.WEBHOOKS + "/" + id, Map.of("done", "test"))));
    }

    @POST
    @Path("{id}/recover")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> recover(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id,
                                 @FormParam("formToken") String formToken, @FormParam("since") String since) {
        // A datetime-local field: minutes, no zone; the page says UTC.
        String instant = since == null || since.isBlank() ? "" : since.length() == 16 ? since + ":00Z" : since + "Z";
        return guard.form(cookie, formToken, visit -> manualSends.recover(visit.organizationId(), id,
                        JsonNodeFactory.instance.objectNode().put("since", instant))
                .map(requeued -> PortalGuard.seeOther(PortalPaths.WEBHOOKS + "/" + id, Map.of("requeued", String.valueOf(requeued))))
                .onFailure(failure -> failure instanceof ApiException api && api.problem().status() == 400)
                .recoverWithUni(failure -> webhooks.get(visit.organizationId(), id).chain(webhook -> page(visit, webhook,
                        WebhookForm.of(webhook), null, null, null, FormErrors.of(((ApiException) failure).problem()),
                        400))));
    }

    /** Why a page shows a signing secret. */
    private enum Shown { CREATED, REVEALED, ROTATED }

    private Response secret(PortalGuard.Visit visit, WebhookView webhook, String secret, Shown shown) {
        return PortalGuard.ok(secretPage.data("visit", visit).data("webhook", webhook).data("secret", secret)
                .data("created", shown == Shown.CREATED).data("rotated", shown == Shown.ROTATED).render());
    }

    private String form(PortalGuard.Visit visit, WebhookForm form, FormErrors errors) {
        return formPage.data("visit", visit).data("form", form).data("errors", errors).render();
    }

    private Uni<Response> page(PortalGuard.Visit visit, WebhookView webhook, WebhookForm form, String status, String after,
                               String done, FormErrors errors, int code) {
        return deliveries.ofWebhook(visit.organizationId(), webhook.id(), DeliveryStatus.named(status), Cursor.decode(after), 20, true)
                .map(page -> PortalGuard.html(code, webhookPage.data("visit", visit).data("webhook", webhook)
                        .data("form", form).data("errors", errors).data("done", done)
                        .data("status", status == null ? "" : status).data("deliveries", rows(page))
                        .data("next", page.next()).data("statuses", List.of("pending", "delivered", "failed", "cancelled"))
                        .render()));
    }

    private static List<DeliveryRow> rows(Page<DeliveryView> page) {
        return page.items().stream().map(DeliveryRow::of).toList();
    }
}
