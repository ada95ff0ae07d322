package dev.hookfan.webhooks;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Encrypts signing secrets at rest with AES-256-GCM when hookfan.secrets.encryption-key is set. A stored value says how
 * it was sealed: plain (no prefix, written before a key was set), {@code enc:v1:} (no associated data), or
 * {@code enc:v2:<key id>:}, bound to its webhook's id as associated data, so a sealed secret copied onto another webhook's
 * row does not open. The key id names which key sealed it, so a previous key keeps opening its secrets during a rotation.
 */
@Singleton
public class SecretCipher {

    private static final Logger LOG = Logger.getLogger(SecretCipher.class);
    private static final String V1 = "enc:v1:";
    private static final String V2 = "enc:v2:";
    private static final int IV_BYTES = 12;
    /** An instance's, made at run time: a native image must not carry a seeded generator in its heap. */
    private final SecureRandom random = new SecureRandom();
    /** Key id → key, the current one first. */
    private final Map<String, SecretKeySpec> keys = new LinkedHashMap<>();
    private final String currentKeyId;

    SecretCipher(SecretsConfig config) {
        Optional<String> current = config.encryptionKey().filter(text -> !text.isBlank());
        Optional<String> previous = config.previousEncryptionKey().filter(text -> !text.isBlank());
        if (current.isEmpty() && previous.isPresent()) {
            throw new IllegalArgumentException("hookfan.secrets.previous-encryption-key needs hookfan.secrets.encryption-key");
        }
        current.map(encoded -> key("hookfan.secrets.encryption-key", encoded)).ifPresent(key -> keys.put(keyId(key), key));
        previous.map(encoded -> key("hookfan.secrets.previous-encryption-key", encoded)).ifPresent(key -> keys.putIfAbsent(keyId(key), key));
        this.currentKeyId = keys.isEmpty() ? null : keys.keySet().iterator().next();
    }

    private static SecretKeySpec key(String property, String encoded) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(encoded.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + " must be base64 of 32 bytes");
        }
        if (bytes.length != 32) {
            throw new IllegalArgumentException(property + " must be base64 of 32 bytes, not " + bytes.length);
        }
        return new SecretKeySpec(bytes, "AES");
    }

    /** The first 4 bytes of the key's SHA-256, in hex: names the key without revealing it. */
    private static String keyId(SecretKeySpec key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getEncoded()), 0, 4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    void sayHowSecretsAreStored(@Observes StartupEvent event) {
        if (currentKeyId == null) {
            LOG.warn("Webhook signing secrets are stored unencrypted: set hookfan.secrets.encryption-key"
                    + " (base64 of 32 random bytes) to encrypt them at rest");
        } else {
            LOG.infof("Webhook signing secrets are encrypted at rest (AES-256-GCM, key %s%s)", currentKeyId,
                    keys.size() > 1 ? ", previous key still read" : "");
        }
    }

    public String seal(String webhookId, String secret) {
        if (currentKeyId == null) {
            return secret;
        }
        try {
            byte[] iv = new byte[IV_BYTES];
            random.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(currentKeyId), new GCMParameterSpec(128, iv));
            cipher.updateAAD(webhookId.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return V2 + currentKeyId + ":"
                    + Base64.getEncoder().encodeToString(ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is required of every JVM", e);
        }
    }

    /** The plain secret of the webhook; fails, naming the setting to look at, if no configured key opens it. */
    public String open(String webhookId, String stored) {
        if (stored.startsWith(V2)) {
            int colon = stored.indexOf(':', V2.length());
            SecretKeySpec key = colon < 0 ? null : keys.get(stored.substring(V2.length(), colon));
            if (key == null) {
                throw new IllegalStateException("A webhook secret was sealed with a key that neither hookfan.secrets.encryption-key"
                        + " nor hookfan.secrets.previous-encryption-key is");
            }
            return decrypt(key, stored.substring(colon + 1), webhookId);
        }
        if (stored.startsWith(V1)) {
            if (keys.isEmpty()) {
                throw new IllegalStateException("A webhook secret is encrypted but hookfan.secrets.encryption-key is not set");
            }
            for (SecretKeySpec key : keys.values()) {
                try {
                    return decrypt(key, stored.substring(V1.length()), null);
                } catch (IllegalStateException wrongKey) {
                    // The next key, if any.
                }
            }
            throw new IllegalStateException("A webhook secret could not be decrypted with hookfan.secrets.encryption-key");
        }
        return stored;
    }

    /** A SQL LIKE pattern that secrets sealed with the current key, the current way, match; empty without a key. */
    Optional<String> currentPattern() {
        return Optional.ofNullable(currentKeyId).map(id -> V2 + id + ":%");
    }

    private static String decrypt(SecretKeySpec key, String encoded, String webhookId) {
        try {
            byte[] bytes = Base64.getDecoder().decode(encoded);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, bytes, 0, IV_BYTES));
            if (webhookId != null) {
                cipher.updateAAD(webhookId.getBytes(StandardCharsets.UTF_8));
            }
            return new String(cipher.doFinal(bytes, IV_BYTES, bytes.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("A webhook secret could not be decrypted with its key (or it was copied from"
                    + " another webhook's row)", e);
        }
    }
}
