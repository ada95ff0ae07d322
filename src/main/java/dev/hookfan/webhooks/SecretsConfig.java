package dev.hookfan.webhooks;

import io.smallrye.config.ConfigMapping;

import java.util.Optional;

@ConfigMapping(prefix = "hookfan.secrets")
public interface SecretsConfig {

    /** Base64 of 32 random bytes: signing secrets are stored AES-256-GCM encrypted with it; unset, they are stored plain. */
    Optional<String> encryptionKey();

    /** The key before the current one, during a key rotation: secrets sealed with it are still read, and re-sealed. */
    Optional<String> previousEncryptionKey();
}
