package dev.hookfan.webhooks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which addresses a webhook may reach, so no URL turns Hookfan into a probe of the network it runs in.
 * Refuses loopback, private, link-local (cloud metadata), CGNAT, unspecified, multicast, broadcast and
 * reserved ranges, in IPv4 and IPv6 and in IPv4-mapped or -compatible IPv6 forms, unless allowed.
 */
public final class AddressPolicy {

    private static final List<Cidr> BLOCKED_V4 = Cidr.all("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8",
            "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
            "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32");
    private static final List<Cidr> BLOCKED_V6 = Cidr.all("::/128", "::1/128", "fc00::/7", "fe80::/10", "fec0::/10",
            "ff00::/8", "64:ff9b::/96", "64:ff9b:1::/48", "2001::/32", "2001:db8::/32", "2002::/16", "100::/64");
    // Numeric host forms a resolver may read as IPv4 (decimal, octal, hex, 1 to 4 parts): parsed here, never looked up.
    private static final Pattern NUMERIC_HOST = Pattern.compile("(?i)(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+)){0,3}\\.?");

    private static final Pattern IPV6_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");

    private final boolean allowPrivate;
    private final List<Cidr> allowed;

    public AddressPolicy(boolean allowPrivate, List<String> allowedCidrs) {
        this.allowPrivate = allowPrivate;
        this.allowed = allowedCidrs.stream().map(Cidr::parse).toList();
    }

    /** Why this address may not be reached, or empty when it may. */
    public Optional<String> problemWith(InetAddress address) {
        if (allowPrivate || allowed.stream().anyMatch(cidr -> cidr.contains(address))) {
            return Optional.empty();
        }
        InetAddress effective = embeddedV4(address).orElse(address);
        List<Cidr> blocked = effective instanceof Inet4Address ? BLOCKED_V4 : BLOCKED_V6;
        return blocked.stream().filter(cidr -> cidr.contains(effective)).findFirst()
                .map(cidr -> "resolves to " + address.getHostAddress() + ", in the blocked range " + cidr);
    }

    /** The address a numeric-looking host stands for, as inet_aton would read it; empty for a name. */
    public static Optional<InetAddress> numericHost(String host) throws UnknownHostException {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.contains(":")) {
            // Only a literal goes to getByName: anything else would be a DNS lookup on the caller's thread.
            if (!IPV6_LITERAL.matcher(bare).matches()) {
                throw new UnknownHostException(host + " is not a valid IPv6 address");
            }
            return Optional.of(InetAddress.getByName(bare));
        }
        if (!NUMERIC_HOST.matcher(bare).matches()) {
            return Optional.empty();
        }
        String[] parts = (bare.endsWith(".") ? bare.substring(0, bare.length() - 1) : bare).split("\\.");
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = number(parts[i]);
        }
        long address = 0;
        for (int i = 0; i < parts.length - 1; i++) {
            if (values[i] > 255) {
                throw new UnknownHostException(host + " is not a valid IPv4 address");
            }
            address |= values[i] << (8 * (3 - i));
        }
        long last = values[parts.length - 1];
        if (last >= 1L << (8 * (4 - (parts.length - 1)))) {
            throw new UnknownHostException(host + " is not a valid IPv4 address");
        }
        address |= last;
        return Optional.of(InetAddress.getByAddress(new byte[]{
                (byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address}));
    }

    private static long number(String part) throws UnknownHostException {
        try {
            if (part.toLowerCase().startsWith("0x")) {
                return part.length() == 2 ? 0 : Long.parseLong(part.substring(2), 16);
            }
            if (part.length() > 1 && part.startsWith("0")) {
                return Long.parseLong(part.substring(1), 8);
            }
            return Long.parseLong(part);
        } catch (NumberFormatException e) {
            throw new UnknownHostException(part + " is not a number");
        }
    }

    /** IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) IPv6 addresses stand for their IPv4 address. */
    private static Optional<InetAddress> embeddedV4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] bytes = address.getAddress();
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return Optional.empty();
            }
        }
        boolean mapped = bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
        boolean compatible = bytes[10] == 0 && bytes[11] == 0 && (bytes[12] | bytes[13] | bytes[14]) != 0;
        if (!mapped && !compatible) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(new byte[]{bytes[12], bytes[13], bytes[14], bytes[15]}));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    record Cidr(byte[] network, int prefix, String text) {

        static List<Cidr> all(String... cidrs) {
            return java.util.Arrays.stream(cidrs).map(Cidr::parse).toList();
        }

        static Cidr parse(String cidr) {
            String[] parts = cidr.trim().split("/");
            try {
                byte[] network = InetAddress.getByName(parts[0]).getAddress();
                int prefix = parts.length > 1 ? Integer.parseInt(parts[1]) : network.length * 8;
                return new Cidr(network, prefix, cidr.trim());
            } catch (UnknownHostException | NumberFormatException e) {
                throw new IllegalArgumentException("not a CIDR: " + cidr, e);
            }
        }

        boolean contains(InetAddress address) {
            byte[] bytes = address.getAddress();
            if (bytes.length != network.length) {
                return false;
            }
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((bytes[bit / 8] & mask) != (network[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
