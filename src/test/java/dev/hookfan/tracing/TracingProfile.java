package dev.hookfan.tracing;

import dev.hookfan.support.OtlpReceiver;
import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** Tracing on, as an operator switches it on at run time, exporting OTLP/HTTP to a receiver in the test JVM. */
public class TracingProfile implements QuarkusTestProfile {

    public static final OtlpReceiver COLLECTOR = OtlpReceiver.start();

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "quarkus.otel.sdk.disabled", "false",
                "quarkus.otel.exporter.otlp.endpoint", COLLECTOR.endpoint(),
                "quarkus.otel.exporter.otlp.protocol", "http/protobuf",
                "quarkus.otel.bsp.schedule.delay", "PT0.1S");
    }
}
