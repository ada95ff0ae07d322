package dev.hookfan.portal;

import dev.hookfan.deliveries.DeliveryView;
import dev.hookfan.webhooks.WebhookView;
import io.quarkus.qute.TemplateData;

/** The API's views the pages read: their value resolvers are generated at build time, reflection-free (native). */
@TemplateData(target = WebhookView.class)
@TemplateData(target = DeliveryView.class)
final class PortalTemplateData {

    private PortalTemplateData() {
    }
}
