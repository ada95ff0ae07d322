package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import dev.hookfan.api.Page;
import dev.hookfan.api.ValidationException;
import dev.hookfan.webhooks.WebhookService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/organizations/{organizationId}/webhooks/{webhookId}/deliveries")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Deliveries")
public class WebhookDeliveriesResource {

    private final WebhookService webhooks;
    private final DeliveryRepository deliveries;

    WebhookDeliveriesResource(WebhookService webhooks, DeliveryRepository deliveries) {
        this.webhooks = webhooks;
        this.deliveries = deliveries;
    }

    @GET
    @Operation(summary = "A webhook's deliveries in creation order (order=oldest, the default) or newest first"
            + " (order=newest), optionally of one status")
    public Uni<Page<DeliveryView>> list(@PathParam("organizationId") String organizationId,
                                        @PathParam("webhookId") String webhookId,
                                        @QueryParam("status") String status,
                                        @QueryParam("limit") Integer limit, @QueryParam("after") String after,
                                        @QueryParam("order") String order) {
        DeliveryStatus wanted = status(status);
        boolean newestFirst = newestFirst(order);
        int size = Cursor.limit(limit);
        Cursor cursor = Cursor.decode(after);
        return webhooks.get(organizationId, webhookId)
                .chain(webhook -> deliveries.page(webhook.id(), wanted, cursor, size, newestFirst))
                .map(rows -> Cursor.page(rows, size, row -> new Cursor(row.createdAt(), row.id()), row -> row));
    }

    private static boolean newestFirst(String order) {
        if (order == null || order.isEmpty() || order.equals("oldest")) {
            return false;
        }
        if (order.equals("newest")) {
            return true;
        }
        throw ValidationException.of("order", "must be oldest or newest");
    }

    private static DeliveryStatus status(String status) {
        if (status == null || status.isEmpty()) {
            return null;
        }
        try {
            return DeliveryStatus.valueOf(status);
        } catch (IllegalArgumentException e) {
            throw ValidationException.of("status", "must be one of pending, delivered, failed, cancelled");
        }
    }
}
