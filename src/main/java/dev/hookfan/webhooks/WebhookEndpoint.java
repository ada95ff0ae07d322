package dev.hookfan.webhooks;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Where and how to send a webhook's deliveries: its URL, its sealed signing secrets (newest first), and what its
 * owner set: a rate in deliveries per second (0: none), a timeout shorter than the service's (null: the service's),
 * and extra request headers.
 */
public record WebhookEndpoint(String url, List<SealedSecret> secrets, int rateLimit, Duration timeout,
                              Map<String, String> headers) {

    public WebhookEndpoint(String url, List<SealedSecret> secrets) {
        this(url, secrets, 0, null, Map.of());
    }

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

    /** This webhook's timeout, never longer than the service's. */
    public Duration timeoutWithin(Duration service) {
        return timeout == null || timeout.compareTo(service) > 0 ? service : timeout;
    }
}
