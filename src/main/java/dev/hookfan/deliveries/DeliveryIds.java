package dev.hookfan.deliveries;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Delivery ids derived from (message id, webhook id), so a redelivered message recomputes the ids of the
 * rows it already wrote. Byte-compatible with .NET's {@code new Guid(sha256[0..16]).ToString("N")}.
 */
public final class DeliveryIds {

    private static final Pattern UUID_TEXT = Pattern.compile(
            "(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}");
    private static final HexFormat HEX = HexFormat.of();

    private DeliveryIds() {
    }

    public static String derive(String messageId, String webhookId) {
        return deriveCanonical(canonical(messageId), webhookId);
    }

    /** {@link #derive} of a message id already made {@link #canonical}: an event's webhooks share one. */
    static String deriveCanonical(String canonicalMessageId, String webhookId) {
        byte[] hash = sha256((canonicalMessageId + ":" + webhookId).getBytes(StandardCharsets.UTF_8));
        // .NET reads the first three Guid fields little-endian: reverse bytes 0-3, 4-5 and 6-7.
        byte[] guid = {
                hash[3], hash[2], hash[1], hash[0], hash[5], hash[4], hash[7], hash[6],
                hash[8], hash[9], hash[10], hash[11], hash[12], hash[13], hash[14], hash[15]};
        return HEX.formatHex(guid);
    }

    /**
     * The id of the stored event a message carried to an organization, so a redelivered message finds the event it
     * already stored. The organization's length goes first: publishers choose both strings, and no two pairs of them
     * may meet in one key. A migration that moves events must derive the same ids in SQL.
     */
    public static String event(String messageId, String organizationId) {
        String key = "event:" + organizationId.getBytes(StandardCharsets.UTF_8).length + ":" + organizationId + ":"
                + canonical(messageId);
        return HEX.formatHex(sha256(key.getBytes(StandardCharsets.UTF_8)), 0, 16);
    }

    /** No message, nothing to deduplicate against: a random id of the same shape. */
    public static String random() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /** A UUID in any case, with or without dashes, becomes its 32 lowercase hex digits; anything else is kept. */
    static String canonical(String messageId) {
        if (UUID_TEXT.matcher(messageId).matches()) {
            return messageId.replace("-", "").toLowerCase(java.util.Locale.ROOT);
        }
        return messageId;
    }

    private static byte[] sha256(byte[] input) {
        return DIGEST.get().digest(input);
    }

    /** One digest per thread: looking the algorithm up for each id cost more than the hash itself. */
    private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    });
}
