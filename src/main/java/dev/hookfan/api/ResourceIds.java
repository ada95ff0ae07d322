package dev.hookfan.api;

import java.util.regex.Pattern;

/** Webhook and delivery ids: 32 lowercase hex digits; a malformed one is answered as an unknown one. */
public final class ResourceIds {

    private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");

    private ResourceIds() {
    }

    public static boolean wellFormed(String id) {
        return id != null && ID.matcher(id).matches();
    }
}
