package dev.hookfan.portal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hookfan.webhooks.WebhookView;
import io.quarkus.qute.TemplateData;
import jakarta.ws.rs.core.MultivaluedMap;

import java.util.Arrays;
import java.util.List;

/**
 * A webhook's form as the page shows it and as it was posted: event types one per line or comma-separated. It
 * becomes the API's own JSON, so the portal validates nothing itself and refuses exactly what the API refuses.
 */
@TemplateData
record WebhookForm(String url, String eventTypes, String description, boolean enabled) {

    static WebhookForm empty() {
        return new WebhookForm("", "*", "", true);
    }

    static WebhookForm of(WebhookView webhook) {
        return new WebhookForm(webhook.url(), String.join(", ", webhook.eventTypes()),
                webhook.description() == null ? "" : webhook.description(), webhook.enabled());
    }

    static WebhookForm posted(MultivaluedMap<String, String> form) {
        return new WebhookForm(value(form, "url"), value(form, "eventTypes"), value(form, "description"),
                form.containsKey("enabled"));
    }

    ObjectNode json(boolean withEnabled) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("url", url.trim());
        List<String> types = Arrays.stream(eventTypes.split("[,\\s]+")).filter(type -> !type.isBlank()).toList();
        types.forEach(json.putArray("eventTypes")::add);
        json.put("description", description.isBlank() ? null : description.trim());
        if (withEnabled) {
            json.put("enabled", enabled);
        }
        return json;
    }

    private static String value(MultivaluedMap<String, String> form, String name) {
        String value = form.getFirst(name);
        return value == null ? "" : value;
    }
}
