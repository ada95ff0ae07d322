package dev.hookfan.webhooks;

import java.security.SecureRandom;
import java.util.Base64;

/** Standard Webhooks secrets: "whsec_" + base64 of 32 random bytes. */
public final class SecretGenerator {

    public static final String PREFIX = "whsec_";

    private SecretGenerator() {
    }

    public static String newSecret() {
        byte[] key = new byte[32];
        // Made per call, never held in a static field: a native image would carry it, seeded, in its heap (and
        // native-image refuses a Random there). Secrets are made on create and rotate only.
        new SecureRandom().nextBytes(key);
        return PREFIX + Base64.getEncoder().encodeToString(key);
    }
}
