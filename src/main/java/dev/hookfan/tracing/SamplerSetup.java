package dev.hookfan.tracing;

import io.quarkus.opentelemetry.runtime.AutoConfiguredOpenTelemetrySdkBuilderCustomizer;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import jakarta.inject.Singleton;

/** Keeps whatever sampler is configured (quarkus.otel.traces.sampler) and wraps it; see {@link BackgroundStatementsSampler}. */
@Singleton
class SamplerSetup implements AutoConfiguredOpenTelemetrySdkBuilderCustomizer {

    @Override
    public void customize(AutoConfiguredOpenTelemetrySdkBuilder builder) {
        builder.addSamplerCustomizer((configured, properties) -> new BackgroundStatementsSampler(configured));
    }
}
