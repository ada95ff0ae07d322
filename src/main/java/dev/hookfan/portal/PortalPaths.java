package dev.hookfan.portal;

/** Where the portal lives; its session cookie is scoped to these paths alone. */
final class PortalPaths {

    static final String ROOT = "/portal";
    static final String ENTER = ROOT + "/enter";
    static final String WEBHOOKS = ROOT + "/webhooks";
    static final String DELIVERIES = ROOT + "/deliveries";
    static final String COOKIE = "hookfan-portal";

    private PortalPaths() {
    }
}
