package dev.hookfan.portal;

import dev.hookfan.api.ApiException;
import dev.hookfan.deliveries.DeliveryService;
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
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One delivery: the exact body sent, its headers, every attempt, and "send again". */
@Path(PortalPaths.DELIVERIES)
@Produces(MediaType.TEXT_HTML)
public class PortalDeliveryPages {

    @TemplateData
    record AttemptRow(int attempt, String startedAt, int durationMs, String status, String answer, String error) {
        static AttemptRow of(DeliveryView.AttemptView attempt) {
            return new AttemptRow(attempt.attempt(), PortalFormat.at(attempt.startedAt()), attempt.durationMs(),
                    attempt.responseStatus() == null ? "no answer" : attempt.responseStatus().toString(),
                    attempt.responseBody() == null ? "" : attempt.responseBody(), attempt.error() == null ? "" : attempt.error());
        }
    }

    @TemplateData
    record Header(String name, String value) {
    }

    private final PortalGuard guard;
    private final DeliveryService deliveries;
    private final ManualSendService manualSends;
    private final WebhookService webhooks;
    private final Template page;

    PortalDeliveryPages(PortalGuard guard, DeliveryService deliveries, ManualSendService manualSends, WebhookService webhooks,
                        @Location("portal/delivery.html") Template page) {
        this.guard = guard;
        this.deliveries = deliveries;
        this.manualSends = manualSends;
        this.webhooks = webhooks;
        this.page = page;
    }

    @GET
    @Path("{id}")
    @Operation(hidden = true)
    public Uni<Response> delivery(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id,
                                  @QueryParam("done") String done) {
        return guard.page(cookie, visit -> deliveries.get(visit.organizationId(), id)
                .chain(delivery -> webhooks.get(visit.organizationId(), delivery.webhookId())
                        // A deleted webhook's deliveries stay readable; only its own headers are gone with it.
                        .onFailure(ApiException.class).recoverWithNull()
                        .map(webhook -> PortalGuard.ok(page.data("visit", visit).data("delivery", delivery)
                                .data("webhook", webhook)
                                .data("createdAt", PortalFormat.at(delivery.createdAt()))
                                .data("deliveredAt", PortalFormat.at(delivery.deliveredAt()))
                                .data("nextAttemptAt", PortalFormat.at(delivery.nextAttemptAt()))
                                .data("body", PortalFormat.pretty(delivery.payload()))
                                .data("headers", headers(delivery, webhook))
                                .data("attempts", delivery.attemptHistory().stream().map(AttemptRow::of).toList())
                                .data("done", "redelivered".equals(done) ? "Sent again: the new attempt shows here in a moment." : null)
                                .render()))));
    }

    @POST
    @Path("{id}/redeliver")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> redeliver(@CookieParam(PortalPaths.COOKIE) String cookie, @PathParam("id") String id,
                                   @FormParam("formToken") String formToken) {
        return guard.form(cookie, formToken, visit -> manualSends.redeliver(visit.organizationId(), id)
                .map(queued -> PortalGuard.seeOther(PortalPaths.DELIVERIES + "/" + id, Map.of("done", "redelivered"))));
    }

    /** The headers every attempt carries; the timestamp and signature are made afresh for each. */
    private static List<Header> headers(DeliveryView delivery, WebhookView webhook) {
        List<Header> headers = new ArrayList<>();
        if (webhook != null && webhook.headers() != null) {
            webhook.headers().forEach((name, value) -> headers.add(new Header(name, value)));
        }
        headers.add(new Header("content-type", "application/json"));
        headers.add(new Header("webhook-id", delivery.id()));
        headers.add(new Header("webhook-timestamp", "the attempt's start, in seconds since 1970"));
        headers.add(new Header("webhook-signature", "v1,<base64 HMAC-SHA256 of id.timestamp.body>, one per valid secret"));
        headers.add(new Header("hookfan-event-type", delivery.eventType()));
        if (delivery.messageId() != null) {
            headers.add(new Header("hookfan-message-id", delivery.messageId()));
        }
        return headers;
    }
}
