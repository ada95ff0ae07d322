package dev.hookfan.support;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP trace receiver (POST /v1/traces, protobuf), as a collector would be: it keeps every span it is sent.
 * Reads the wire format itself, only the fields a test looks at, so the suite needs no generated protobuf classes.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** One received span; ids in lower-case hex, parent empty for a root, kind as OTLP numbers it (1 internal ... 5 consumer). */
    public record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name, int kind,
                               Map<String, String> attributes, int statusCode) {
        public static final int INTERNAL = 1;
        public static final int SERVER = 2;
        public static final int CLIENT = 3;
        public static final int PRODUCER = 4;
        public static final int CONSUMER = 5;

        public String attribute(String key) {
            return attributes.get(key);
        }
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    public static OtlpReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            OtlpReceiver receiver = new OtlpReceiver(server);
            server.createContext("/v1/traces", exchange -> {
                try (InputStream raw = exchange.getRequestBody()) {
                    InputStream body = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("content-encoding"))
                            ? new GZIPInputStream(raw) : raw;
                    receiver.spans.addAll(spans(body.readAllBytes()));
                    exchange.getResponseHeaders().add("content-type", "application/x-protobuf");
                    exchange.sendResponseHeaders(200, -1);
                } catch (RuntimeException unreadable) {
                    exchange.sendResponseHeaders(400, -1);
                } finally {
                    exchange.close();
                }
            });
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<ReceivedSpan> trace(String traceId) {
        return spans.stream().filter(span -> span.traceId().equals(traceId)).toList();
    }

    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** ExportTraceServiceRequest: resource_spans(1) → scope_spans(2) → spans(2). */
    static List<ReceivedSpan> spans(byte[] request) {
        List<ReceivedSpan> found = new ArrayList<>();
        for (byte[] resourceSpans : new Wire(request).all(1)) {
            for (byte[] scopeSpans : new Wire(resourceSpans).all(2)) {
                for (byte[] span : new Wire(scopeSpans).all(2)) {
                    found.add(span(span));
                }
            }
        }
        return found;
    }

    private static ReceivedSpan span(byte[] bytes) {
        Wire span = new Wire(bytes);
        Map<String, String> attributes = new LinkedHashMap<>();
        for (byte[] keyValue : span.all(9)) {
            Wire attribute = new Wire(keyValue);
            byte[] value = attribute.first(2);
            attributes.put(text(attribute.first(1)), value == null ? null : anyValue(new Wire(value)));
        }
        byte[] status = span.first(15);
        return new ReceivedSpan(hex(span.first(1)), hex(span.first(2)), hex(span.first(4)), text(span.first(5)),
                (int) span.varint(6), attributes, status == null ? 0 : (int) new Wire(status).varint(3));
    }

    /** AnyValue: string(1), bool(2), int(3); other kinds are not read. */
    private static String anyValue(Wire value) {
        byte[] string = value.first(1);
        if (string != null) {
            return text(string);
        }
        return value.has(3) ? Long.toString(value.varint(3)) : value.has(2) ? Boolean.toString(value.varint(2) != 0) : null;
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? "" : HexFormat.of().formatHex(bytes);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The protobuf wire format: a message is (field number, wire type) keys, each followed by its value. */
    private record Wire(byte[] bytes) {

        List<byte[]> all(int field) {
            List<byte[]> values = new ArrayList<>();
            walk((number, value) -> {
                if (number == field && value instanceof byte[] bytes) {
                    values.add(bytes);
                }
            });
            return values;
        }

        byte[] first(int field) {
            List<byte[]> values = all(field);
            return values.isEmpty() ? null : values.get(0);
        }

        boolean has(int field) {
            boolean[] seen = {false};
            walk((number, value) -> seen[0] |= number == field);
            return seen[0];
        }

        long varint(int field) {
            long[] found = {0};
            walk((number, value) -> {
                if (number == field && value instanceof Long number64) {
                    found[0] = number64;
                }
            });
            return found[0];
        }

        private void walk(java.util.function.BiConsumer<Integer, Object> visitor) {
            int[] at = {0};
            while (at[0] < bytes.length) {
                long key = readVarint(at);
                int field = (int) (key >>> 3);
                switch ((int) (key & 7)) {
                    case 0 -> visitor.accept(field, readVarint(at));
                    case 1 -> {
                        visitor.accept(field, fixed(at, 8));
                    }
                    case 2 -> {
                        int length = (int) readVarint(at);
                        byte[] value = java.util.Arrays.copyOfRange(bytes, at[0], at[0] + length);
                        at[0] += length;
                        visitor.accept(field, value);
                    }
                    case 5 -> visitor.accept(field, fixed(at, 4));
                    default -> throw new IllegalArgumentException("wire type " + (key & 7) + " is not protobuf's");
                }
            }
        }

        private long readVarint(int[] at) {
            long value = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = bytes[at[0]++];
                value |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
        }

        private long fixed(int[] at, int size) {
            long value = 0;
            for (int i = 0; i < size; i++) {
                value |= (long) (bytes[at[0]++] & 0xff) << (8 * i);
            }
            return value;
        }
    }
}
