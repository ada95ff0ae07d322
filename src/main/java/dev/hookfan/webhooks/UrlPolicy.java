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
        if (!url.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            // Non-ASCII and control characters hide what a URL really says (homoglyphs, bidi overrides).
            return Optional.of("must be plain ASCII: percent-encode the path and use the punycode form of the host");
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
        if (host(uri) == null) {
            return Optional.of("must have a host");
        }
        if (uri.getRawFragment() != null) {
            return Optional.of("must not contain a fragment");
        }
        return Optional.empty();
    }

    /**
     * The URL's host. java.net.URI gives none for numeric forms such as 127.1 or 0x7f.0.0.1, which HTTP
     * clients still connect to, so those are read from the authority here and vetted like any address.
     */
    public static String host(URI uri) {
        if (uri.getHost() != null && !uri.getHost().isEmpty()) {
            return uri.getHost();
        }
        String authority = uri.getRawAuthority();
        if (authority == null || authority.contains("@")) {
            return null;
        }
        int colon = authority.lastIndexOf(':');
        String host = colon >= 0 && !authority.endsWith("]") ? authority.substring(0, colon) : authority;
        try {
            return AddressPolicy.numericHost(host).isPresent() ? host : null;
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    /** The URL's port, or the scheme's default. */
    public static int port(URI uri) {
        if (uri.getPort() != -1) {
            return uri.getPort();
        }
        String authority = uri.getRawAuthority();
        int colon = authority == null ? -1 : authority.lastIndexOf(':');
        if (colon >= 0 && !authority.endsWith("]")) {
            try {
                return Integer.parseInt(authority.substring(colon + 1));
            } catch (NumberFormatException ignored) {
                // fall through to the default
            }
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }
}
