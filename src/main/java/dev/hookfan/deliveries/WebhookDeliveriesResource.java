package dev.hookfan.deliveries;

import dev.hookfan.api.Cursor;
import dev.hookfan.api.Page;
import dev.hookfan.api.ValidationException;
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

    private final DeliveryService deliveries;

    WebhookDeliveriesResource(DeliveryService deliveries) {
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
        DeliveryStatus wanted = DeliveryStatus.named(status);
        boolean newestFirst = newestFirst(order);
        int size = Cursor.limit(limit);
        Cursor cursor = Cursor.decode(after);
        return deliveries.ofWebhook(organizationId, webhookId, wanted, cursor, size, newestFirst);
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
}
