package dev.hookfan.webhooks;

import java.security.SecureRandom;
import java.util.Base64;

/** Standard Webhooks secrets: "whsec_" + base64 of 32 random bytes. */
public final class SecretGenerator {

    public static final String PREFIX = "whsec_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private SecretGenerator() {
    }

    public static String newSecret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return PREFIX + Base64.getEncoder().encodeToString(key);
    }
}
