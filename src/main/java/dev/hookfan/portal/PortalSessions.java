package dev.hookfan.portal;

import dev.hookfan.webhooks.SecretsConfig;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * Portal sessions as signed, self-contained tokens: organization, expiry and a nonce under an HMAC-SHA256, so any
 * instance that shares the key opens them and nothing is stored. A token that was forged, altered or has expired
 * opens nothing.
 */
@Singleton
public class PortalSessions {

    private static final Logger LOG = Logger.getLogger(PortalSessions.class);
    private static final Base64.Encoder ENCODE = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODE = Base64.getUrlDecoder();

    /** What a link grants: one organization, until an instant. */
    public record Session(String organizationId, Instant expiresAt) {
    }

    /** A new session and the token that opens it. */
    public record Issued(String token, Instant expiresAt) {
    }

    private final byte[] key;
    private final PortalConfig config;
    private final SecureRandom random = new SecureRandom();
    private final Clock clock;

    @Inject
    PortalSessions(PortalConfig config, SecretsConfig secrets) {
        this(config, key(config, secrets), Clock.systemUTC());
    }

    PortalSessions(PortalConfig config, byte[] key, Clock clock) {
        this.config = config;
        this.key = key;
        this.clock = clock;
    }

    private static byte[] key(PortalConfig config, SecretsConfig secrets) {
        if (config.signingKey().isPresent()) {
            byte[] given = Base64.getDecoder().decode(config.signingKey().get().trim());
            if (given.length < 32) {
                throw new IllegalArgumentException("hookfan.portal.signing-key must be the base64 of at least 32 bytes");
            }
            return given;
        }
        if (secrets.encryptionKey().isPresent()) {
            return hmac(Base64.getDecoder().decode(secrets.encryptionKey().get().trim()), "hookfan portal links");
        }
        LOG.warn("Neither hookfan.portal.signing-key nor hookfan.secrets.encryption-key is set: portal links are signed"
                + " with a key drawn at start, and open on this instance only, until it stops");
        byte[] drawn = new byte[32];
        new SecureRandom().nextBytes(drawn);
        return drawn;
    }

    public Issued issue(String organizationId) {
        Instant expiresAt = clock.instant().plus(config.sessionTtl()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        String payload = ENCODE.encodeToString(organizationId.getBytes(StandardCharsets.UTF_8)) + "."
                + expiresAt.getEpochSecond() + "." + ENCODE.encodeToString(nonce);
        return new Issued(payload + "." + ENCODE.encodeToString(hmac(key, payload)), expiresAt);
    }

    public Optional<Session> open(String token) {
        if (token == null || token.length() > 2048) {
            return Optional.empty();
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 4) {
            return Optional.empty();
        }
        try {
            String payload = parts[0] + "." + parts[1] + "." + parts[2];
            if (!MessageDigest.isEqual(hmac(key, payload), DECODE.decode(parts[3]))) {
                return Optional.empty();
            }
            Instant expiresAt = Instant.ofEpochSecond(Long.parseLong(parts[1]));
            if (!clock.instant().isBefore(expiresAt)) {
                return Optional.empty();
            }
            return Optional.of(new Session(new String(DECODE.decode(parts[0]), StandardCharsets.UTF_8), expiresAt));
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }

    /** The form token of a session: a page's forms carry it, so another site cannot post in the session's name. */
    public String formToken(String token) {
        return ENCODE.encodeToString(hmac(key, "form." + token));
    }

    private static byte[] hmac(byte[] key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
