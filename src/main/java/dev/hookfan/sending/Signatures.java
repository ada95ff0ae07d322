package dev.hookfan.sending;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/** Standard Webhooks signatures: v1,base64(HMAC-SHA256(key, "id.timestamp.body")). */
public final class Signatures {

    private static final String SECRET_PREFIX = "whsec_";

    private Signatures() {
    }

    public static String sign(String secret, String id, long timestamp, String body) {
        String encodedKey = secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(encodedKey), "HmacSHA256"));
            byte[] signature = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(signature);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every JVM", e);
        }
    }

    /** One header value for every valid secret, newest first, so subscribers can rotate without a gap. */
    public static String header(List<String> secretsNewestFirst, String id, long timestamp, String body) {
        return secretsNewestFirst.stream()
                .map(secret -> sign(secret, id, timestamp, body))
                .collect(Collectors.joining(" "));
    }
}
