package dev.hookfan.deliveries;

import dev.hookfan.api.ValidationException;

/** Lifecycle of a delivery; stored in lowercase. */
public enum DeliveryStatus {
    pending, delivered, failed, cancelled;

    /** The status a listing asks for by name; null (every status) when none is named. */
    public static DeliveryStatus named(String status) {
        if (status == null || status.isEmpty()) {
            return null;
        }
        try {
            return valueOf(status);
        } catch (IllegalArgumentException e) {
            throw ValidationException.of("status", "must be one of pending, delivered, failed, cancelled");
        }
    }
}
