package dev.hookfan.portal;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

@ConfigMapping(prefix = "hookfan.portal")
public interface PortalConfig {

    /** How long a portal link, and the browser session it opens, lasts. */
    @WithDefault("1H")
    Duration sessionTtl();

    /** Absolute base of the links handed out (https://hooks.example.com); unset, a link is a path on the service. */
    Optional<String> baseUrl();

    /** Who may show the portal in a frame: the sources of its Content-Security-Policy frame-ancestors. */
    @WithDefault("'self'")
    String frameAncestors();

    /** The session cookie's SameSite: lax, or none (HTTPS only) to embed the portal in another site's frame. */
    @WithDefault("lax")
    String cookieSameSite();

    /**
     * Base64 of at least 32 random bytes that sign portal links, the same on every instance. Unset, a key is derived
     * from hookfan.secrets.encryption-key, or, without one, drawn at start (links then open on this instance only).
     */
    Optional<String> signingKey();
}
