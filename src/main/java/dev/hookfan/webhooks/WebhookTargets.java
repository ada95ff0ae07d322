package dev.hookfan.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.inject.Singleton;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Resolves a webhook URL's host and vets every address it resolves to, at create/update and again at every
 * send. The lookup runs on a worker thread and its result comes back on the caller's Vert.x context.
 */
@Singleton
public class WebhookTargets {

    private final Vertx vertx;
    private final AddressPolicy policy;

    WebhookTargets(Vertx vertx, WebhooksConfig config) {
        this.vertx = vertx;
        this.policy = new AddressPolicy(config.allowPrivateAddresses(), config.allowedCidrs().orElse(List.of()));
    }

    /**
     * What a tenant is told when a URL is refused: the same whether the host does not resolve or resolves to a blocked
     * address, and never the address, so webhook URLs cannot be used to map the network Hookfan runs in.
     */
    public static final String REFUSED = "the URL's host does not resolve to a public address webhooks may reach";

    /** A vetted address to connect to, or the reason there is none (for the service's log, not for the tenant). */
    public record Target(InetAddress address, String refusal) {
        public boolean allowed() {
            return refusal == null;
        }
    }

    public Uni<Target> vet(String url) {
        String host = UrlPolicy.host(URI.create(url));
        Optional<InetAddress> numeric;
        try {
            numeric = AddressPolicy.numericHost(host);
        } catch (UnknownHostException e) {
            return Uni.createFrom().item(doesNotResolve(host));
        }
        // A literal address needs no lookup, so it is vetted right here: no worker thread per send.
        return numeric.isPresent()
                ? Uni.createFrom().item(decide(host, List.of(numeric.get())))
                : vertx.executeBlocking(Uni.createFrom().item(() -> resolveAndDecide(host)), false);
    }

    private Target resolveAndDecide(String host) {
        try {
            return decide(host, Arrays.asList(InetAddress.getAllByName(host)));
        } catch (UnknownHostException e) {
            return doesNotResolve(host);
        }
    }

    private Target decide(String host, List<InetAddress> addresses) {
        for (InetAddress address : addresses) {
            Optional<String> problem = policy.problemWith(address);
            if (problem.isPresent()) {
                // Any blocked address refuses the host: a resolver may hand out another one next time.
                return new Target(null, "host " + host + " " + problem.get());
            }
        }
        return new Target(addresses.get(0), null);
    }

    private static Target doesNotResolve(String host) {
        return new Target(null, "host " + host + " does not resolve");
    }
}
