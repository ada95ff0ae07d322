package dev.hookfan.tracing;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;

import java.util.List;

/**
 * Wraps the configured sampler: a database statement with no trace around it (the poller, the relay, a claim, the
 * cache's heartbeat, each every second or more) is never recorded, so traces are the messages' and the requests'.
 */
final class BackgroundStatementsSampler implements Sampler {

    private final Sampler configured;

    BackgroundStatementsSampler(Sampler configured) {
        this.configured = configured;
    }

    @Override
    public SamplingResult shouldSample(Context parent, String traceId, String name, SpanKind kind, Attributes attributes,
                                       List<LinkData> links) {
        if (kind == SpanKind.CLIENT && !Span.fromContext(parent).getSpanContext().isValid() && isStatement(attributes)) {
            return SamplingResult.drop();
        }
        return configured.shouldSample(parent, traceId, name, kind, attributes, links);
    }

    private static boolean isStatement(Attributes attributes) {
        return attributes.asMap().keySet().stream().anyMatch(key -> key.getKey().startsWith("db."));
    }

    @Override
    public String getDescription() {
        return "BackgroundStatementsSampler{" + configured.getDescription() + "}";
    }
}
