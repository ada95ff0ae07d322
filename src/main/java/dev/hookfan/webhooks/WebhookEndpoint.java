package dev.hookfan.webhooks;

import java.time.Instant;
import java.util.List;

/** Where and how to send a webhook's deliveries: its URL and its sealed signing secrets, newest first. */
public record WebhookEndpoint(String url, List<SealedSecret> secrets) {

    /** A secret as stored (encrypted when a key is set); a rotated one signs until it expires. */
    public record SealedSecret(String sealed, Instant expiresAt) {
        boolean signsAt(Instant at) {
            return expiresAt == null || expiresAt.isAfter(at);
        }
    }

    /** The sealed secrets that may sign at this instant, newest first. */
    public List<String> secretsAt(Instant at) {
        return secrets.stream().filter(secret -> secret.signsAt(at)).map(SealedSecret::sealed).toList();
    }
}
