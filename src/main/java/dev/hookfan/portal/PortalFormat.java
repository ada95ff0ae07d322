package dev.hookfan.portal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the pages show instants and JSON: UTC to the second, JSON indented. */
final class PortalFormat {

    private static final DateTimeFormatter AT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PortalFormat() {
    }

    static String at(Instant instant) {
        return instant == null ? "" : AT.format(instant);
    }

    /** The JSON indented, or as it is if it does not parse. */
    static String pretty(String json) {
        if (json == null) {
            return "";
        }
        try {
            return JSON.writeValueAsString(JSON.readTree(json));
        } catch (Exception notJson) {
            return json;
        }
    }
}
