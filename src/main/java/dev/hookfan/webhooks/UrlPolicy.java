package dev.hookfan.webhooks;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/** The one place that decides whether a webhook URL is acceptable; returns why not, if it is not. */
public final class UrlPolicy {

    static final int MAX_LENGTH = 2048;

    private UrlPolicy() {
    }

    public static Optional<String> problemWith(String url) {
        if (url.length() > MAX_LENGTH) {
            return Optional.of("must be at most " + MAX_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of("is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
            return Optional.of("must be an absolute http or https URL");
        }
        if (uri.getRawUserInfo() != null) {
            return Optional.of("must not contain user information");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            return Optional.of("must have a host");
        }
        if (uri.getRawFragment() != null) {
            return Optional.of("must not contain a fragment");
        }
        return Optional.empty();
    }
}
