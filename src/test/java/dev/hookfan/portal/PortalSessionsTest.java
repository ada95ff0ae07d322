package dev.hookfan.portal;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PortalSessionsTest {

    static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes();
    static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");

    static PortalConfig config() {
        return config(Optional.empty());
    }

    static PortalConfig config(Optional<String> baseUrl) {
        return new PortalConfig() {
            public Duration sessionTtl() {
                return Duration.ofHours(1);
            }

            public Optional<String> baseUrl() {
                return baseUrl;
            }

            public String frameAncestors() {
                return "'self'";
            }

            public String cookieSameSite() {
                return "lax";
            }

            public Optional<String> signingKey() {
                return Optional.empty();
            }
        };
    }

    static PortalSessions at(Instant now, byte[] key) {
        return new PortalSessions(config(), key, Clock.fixed(now, ZoneOffset.UTC));
    }

    @Test
    void a_link_opens_its_organization_until_it_expires() {
        PortalSessions.Issued issued = at(NOW, KEY).issue("org.with.dots");
        assertEquals(NOW.plus(Duration.ofHours(1)), issued.expiresAt());
        assertEquals("org.with.dots", at(NOW.plus(Duration.ofMinutes(59)), KEY).open(issued.token()).orElseThrow().organizationId());
        assertTrue(at(NOW.plus(Duration.ofHours(1)), KEY).open(issued.token()).isEmpty(), "expired at its instant");
    }

    @Test
    void a_forged_or_altered_link_opens_nothing() {
        String token = at(NOW, KEY).issue("org_a").token();
        String[] parts = token.split("\\.");
        String otherOrg = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("org_b".getBytes());
        String later = String.valueOf(Long.parseLong(parts[1]) + 86_400);
        for (String altered : new String[]{otherOrg + "." + parts[1] + "." + parts[2] + "." + parts[3],
                parts[0] + "." + later + "." + parts[2] + "." + parts[3],
                parts[0] + "." + parts[1] + "." + parts[2] + ".AAAA", token + ".", "", "a.b.c.d", null}) {
            assertTrue(at(NOW, KEY).open(altered).isEmpty(), () -> "opened: " + altered);
        }
        assertTrue(at(NOW, "another key, as long as the first".getBytes()).open(token).isEmpty(), "another key");
    }

    @Test
    void each_session_has_a_form_token_of_its_own() {
        PortalSessions sessions = at(NOW, KEY);
        String one = sessions.issue("org_a").token();
        String two = sessions.issue("org_a").token();
        assertNotEquals(one, two);
        assertNotEquals(sessions.formToken(one), sessions.formToken(two));
        assertEquals(sessions.formToken(one), sessions.formToken(one));
    }

    @Test
    void a_link_is_a_path_on_the_service_unless_a_base_url_is_set() {
        String relative = ((PortalSessionResource.PortalSessionView) new PortalSessionResource(at(NOW, KEY), config())
                .create("org_a").getEntity()).url();
        String absolute = ((PortalSessionResource.PortalSessionView) new PortalSessionResource(at(NOW, KEY),
                config(Optional.of("https://hooks.example.com/"))).create("org_a").getEntity()).url();
        assertTrue(relative.startsWith("/portal/enter?session="), relative);
        assertTrue(absolute.startsWith("https://hooks.example.com/portal/enter?session="), absolute);
        String token = absolute.substring(absolute.indexOf('=') + 1);
        assertEquals("org_a", at(NOW, KEY).open(token).orElseThrow().organizationId());
    }
}
