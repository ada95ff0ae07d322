package dev.hookfan.deliveries;

/** Lifecycle of a delivery; stored in lowercase. */
public enum DeliveryStatus {
    pending, delivered, failed, cancelled
}
