package dev.hookfan.webhooks;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AddressPolicyTest {

    final AddressPolicy policy = new AddressPolicy(false, List.of("10.20.0.0/16"));

    InetAddress address(String host) throws Exception {
        return AddressPolicy.numericHost(host).orElseGet(() -> {
            throw new AssertionError(host + " was not read as an address");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.255.255.254", "2130706433", "0177.0.0.1", "0x7f.0.0.1", "0x7f000001", "127.1",
            "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "0",
            "224.0.0.1", "239.255.255.250", "255.255.255.255", "240.0.0.1", "192.0.2.1", "198.18.0.1",
            "[::1]", "::", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1",
            "::ffff:10.0.0.1", "::127.0.0.1", "::ffff:169.254.169.254", "2001:db8::1"})
    void should_refuse_every_internal_address_in_any_notation(String host) throws Exception {
        assertTrue(policy.problemWith(address(host)).isPresent(), host + " was allowed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
            "::ffff:8.8.8.8", "10.20.3.4"})
    void should_allow_public_addresses_and_allowed_cidrs(String host) throws Exception {
        assertEquals(java.util.Optional.empty(), policy.problemWith(address(host)), host);
    }

    @Test
    void should_read_numeric_hosts_as_inet_aton_does() throws Exception {
        assertEquals("127.0.0.1", address("2130706433").getHostAddress());
        assertEquals("127.0.0.1", address("0177.0.0.01").getHostAddress());
        assertEquals("127.0.0.1", address("0x7f.1").getHostAddress());
        assertEquals("10.0.1.2", address("10.258").getHostAddress());
        assertTrue(AddressPolicy.numericHost("example.com").isEmpty());
        assertTrue(AddressPolicy.numericHost("1.2.3.example").isEmpty());
    }

    @Test
    void should_let_everything_through_when_private_addresses_are_allowed() throws Exception {
        assertTrue(new AddressPolicy(true, List.of()).problemWith(address("127.0.0.1")).isEmpty());
    }
}
