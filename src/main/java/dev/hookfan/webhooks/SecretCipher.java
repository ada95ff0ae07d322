package dev.hookfan.webhooks;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * Encrypts signing secrets at rest with AES-256-GCM when hookfan.secrets.encryption-key is set. Stored values
 * carry a prefix, so secrets written before a key was configured are still read.
 */
@Singleton
public class SecretCipher {

    private static final Logger LOG = Logger.getLogger(SecretCipher.class);
    private static final String PREFIX = "enc:v1:";
    private static final int IV_BYTES = 12;
    /** An instance's, made at run time: a native image must not carry a seeded generator in its heap. */
    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec key;

    SecretCipher(@ConfigProperty(name = "hookfan.secrets.encryption-key") Optional<String> encodedKey) {
        this.key = encodedKey.filter(text -> !text.isBlank()).map(SecretCipher::key).orElse(null);
    }

    private static SecretKeySpec key(String encoded) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(encoded.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("hookfan.secrets.encryption-key must be base64 of 32 bytes");
        }
        if (bytes.length != 32) {
            throw new IllegalArgumentException("hookfan.secrets.encryption-key must be base64 of 32 bytes, not " + bytes.length);
        }
        return new SecretKeySpec(bytes, "AES");
    }

    void sayHowSecretsAreStored(@Observes StartupEvent event) {
        if (key == null) {
            LOG.warn("Webhook signing secrets are stored unencrypted: set hookfan.secrets.encryption-key"
                    + " (base64 of 32 random bytes) to encrypt them at rest");
        } else {
            LOG.info("Webhook signing secrets are encrypted at rest (AES-256-GCM)");
        }
    }

    public String seal(String secret) {
        if (key == null) {
            return secret;
        }
        try {
            byte[] iv = new byte[IV_BYTES];
            random.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return PREFIX + Base64.getEncoder().encodeToString(ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is required of every JVM", e);
        }
    }

    public String open(String stored) {
        if (!stored.startsWith(PREFIX)) {
            return stored;
        }
        if (key == null) {
            throw new IllegalStateException("A webhook secret is encrypted but hookfan.secrets.encryption-key is not set");
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(stored.substring(PREFIX.length()));
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, bytes, 0, IV_BYTES));
            return new String(cipher.doFinal(bytes, IV_BYTES, bytes.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("A webhook secret could not be decrypted with hookfan.secrets.encryption-key", e);
        }
    }
}
