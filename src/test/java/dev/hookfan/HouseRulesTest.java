package dev.hookfan;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The code's layout rules, read off the sources so a change that breaks one fails here, naming the file. */
class HouseRulesTest {

    private static final Path MAIN = Path.of("src/main/java/dev/hookfan");
    private static final Pattern STRING_LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern WRITE = Pattern.compile("(?i)\\b(?:insert\\s+into|update|delete\\s+from)\\s+([a-z_]+)\\b");
    private static final Set<String> TABLES = Set.of("webhook", "webhook_secret", "webhook_delivery", "delivery_event",
            "delivery_attempt", "delivery_sweep", "audit_entry", "organization_entitlements", "operational_event");

    /**
     * Each table's SQL writers, by class. The delivery tables have two packages: deliveries makes and removes rows
     * (fan-out, reopen, purge), sending moves their send state; a success writes the delivery, its webhook's health and
     * an operational event in one statement, so those webhook columns are sending's too.
     */
    private static final Map<String, Set<String>> WRITERS = new TreeMap<>(Map.of(
            "audit_entry", Set.of("audit/AuditEntries", "audit/AuditRetention"),
            "organization_entitlements", Set.of("entitlements/EntitlementsProjection"),
            "operational_event", Set.of("sending/DeliveredRecords", "sending/OperationalEvents"),
            "webhook", Set.of("sending/AttemptRecorder", "sending/DeliveredRecords", "sending/OperationalEvents"),
            "webhook_secret", Set.of("webhooks/SecretResealer"),
            "webhook_delivery", Set.of("deliveries/DeliveryRepository", "deliveries/DeliveryRetention",
                    "sending/AttemptRecorder", "sending/DeliveredRecords", "sending/DeliveryClaims",
                    "sending/LostRequestSweep", "sending/PendingCancellation"),
            "delivery_event", Set.of("deliveries/DeliveryRepository", "deliveries/DeliveryRetention"),
            "delivery_attempt", Set.of("deliveries/DeliveryRetention", "sending/AttemptRecorder", "sending/DeliveredRecords"),
            "delivery_sweep", Set.of("deliveries/DeliveryRepository", "sending/LostRequestSweep")));

    @Test
    void each_table_is_written_by_its_owners_alone() {
        Map<String, Set<String>> found = new TreeMap<>();
        for (Path file : sources()) {
            for (String literal : literals(read(file))) {
                Matcher write = WRITE.matcher(literal);
                while (write.find()) {
                    if (TABLES.contains(write.group(1))) {
                        found.computeIfAbsent(write.group(1), table -> new TreeSet<>()).add(name(file));
                    }
                }
            }
        }
        Map<String, Set<String>> expected = new TreeMap<>();
        WRITERS.forEach((table, writers) -> expected.put(table, new TreeSet<>(writers)));
        assertEquals(expected, found);
    }

    @Test
    void hibernate_serves_the_subscription_side_alone() {
        assertEquals(List.of(), filesMatching("import (io\\.quarkus\\.hibernate|org\\.hibernate|jakarta\\.persistence)", "webhooks/"));
        assertEquals(List.of("webhooks/WebhookRepository"), filesMatching("Panache\\.getSession\\(\\)", ""));
    }

    @Test
    void only_the_messaging_adapter_knows_the_broker_and_smallrye_messaging() {
        assertEquals(List.of(), filesMatching("import (com\\.rabbitmq|io\\.vertx\\.[a-z.]*rabbitmq|io\\.smallrye\\.reactive\\.messaging"
                + "|org\\.eclipse\\.microprofile\\.reactive\\.messaging)", "messaging/"));
    }

    @Test
    void nothing_is_imported_from_implementation_packages() {
        assertEquals(List.of(), filesMatching("import (static )?[a-z.]+\\.(impl|internal|internals|providers)\\.", "-"));
    }

    @Test
    void no_main_source_file_is_over_250_lines() {
        List<String> long_ = new ArrayList<>();
        for (Path file : sources()) {
            long lines = read(file).lines().count();
            if (lines > 250) {
                long_.add(name(file) + " (" + lines + " lines)");
            }
        }
        assertEquals(List.of(), long_);
    }

    @Test
    void no_package_depends_on_itself_through_others() {
        Map<String, Set<String>> uses = new TreeMap<>();
        Pattern reference = Pattern.compile("\\bdev\\.hookfan\\.([a-z]+)\\.[A-Za-z]");
        for (Path file : sources()) {
            String own = name(file).split("/")[0];
            Matcher used = reference.matcher(read(file).replaceAll("(?m)^package .*$", ""));
            while (used.find()) {
                if (!used.group(1).equals(own)) {
                    uses.computeIfAbsent(own, p -> new TreeSet<>()).add(used.group(1));
                }
            }
        }
        List<String> cycles = new ArrayList<>();
        uses.forEach((from, direct) -> direct.forEach(to -> {
            if (reaches(uses, to, from, new TreeSet<>())) {
                cycles.add(from + " -> " + to + " -> ... -> " + from);
            }
        }));
        assertEquals(List.of(), cycles);
    }

    /**
     * Resources and portal pages map services' answers to HTTP and HTML: the rules and the data sit in the services.
     */
    @Test
    void resources_and_portal_pages_call_services_only() {
        Pattern ruleOrStore = Pattern.compile("\\b(\\w+Repository|Pool|ManualSendLimit|WebhookLimits|WebhookTargets|UrlPolicy"
                + "|AddressPolicy|WebhookHeaders|FailedDeliveriesRecovery|WebhookFanOutHandler|DeliveryRequests|AuditLog"
                + "|WebhookDirectory|SecretCipher|DeliveryClaims)\\b");
        Pattern otherResource = Pattern.compile("\\b\\w+Resource\\b");
        List<String> reaching = new ArrayList<>();
        for (Path file : sources()) {
            String text = read(file);
            boolean resource = Pattern.compile("(?m)^@Path\\(").matcher(text).find();
            boolean portal = name(file).startsWith("portal/");
            Matcher rule = ruleOrStore.matcher(text);
            if ((resource || portal) && rule.find()) {
                reaching.add(name(file) + " uses " + rule.group(1));
            }
            String own = name(file).substring(name(file).indexOf('/') + 1);
            Matcher called = otherResource.matcher(text.replaceAll("\\b" + own + "\\b", ""));
            if ((resource || portal) && called.find()) {
                reaching.add(name(file) + " calls " + called.group());
            }
        }
        assertEquals(List.of(), reaching);
    }

    @Test
    void no_response_is_unwrapped_in_the_application() {
        assertEquals(List.of(), filesMatching("\\.getEntity\\(\\)", "-"));
    }

    private static boolean reaches(Map<String, Set<String>> uses, String from, String target, Set<String> seen) {
        if (from.equals(target)) {
            return true;
        }
        if (!seen.add(from)) {
            return false;
        }
        return uses.getOrDefault(from, Set.of()).stream().anyMatch(next -> reaches(uses, next, target, seen));
    }

    @Test
    void every_default_has_one_source() {
        // @WithDefault in a @ConfigMapping, or Quarkus' own default: never a second one beside an injection point.
        assertEquals(List.of(), filesMatching("@ConfigProperty\\([^)]*defaultValue", "-"));
    }

    @Test
    void comments_give_reasons_not_migration_numbers() {
        assertEquals(List.of(), filesMatching("(^\\s*(\\*|/\\*)|//).*\\bV[0-9]{1,3}\\b", "-"));
    }

    /** Files outside {@code allowedPrefix} (a package path, "" for none, "-" for no exception) whose text matches. */
    private static List<String> filesMatching(String regex, String allowedPrefix) {
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        List<String> matching = new ArrayList<>();
        for (Path file : sources()) {
            String name = name(file);
            boolean allowed = !allowedPrefix.isEmpty() && !allowedPrefix.equals("-") && name.startsWith(allowedPrefix);
            if (!allowed && pattern.matcher(read(file)).find()) {
                matching.add(name);
            }
        }
        return matching;
    }

    private static List<String> literals(String source) {
        List<String> literals = new ArrayList<>();
        Matcher literal = STRING_LITERAL.matcher(source.replaceAll("\"\\s*\\+\\s*\"", ""));
        while (literal.find()) {
            literals.add(literal.group(1));
        }
        return literals;
    }

    private static List<Path> sources() {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String name(Path file) {
        String relative = MAIN.relativize(file).toString().replace('\\', '/');
        return relative.substring(0, relative.length() - ".java".length());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
