package dev.hookfan.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/** A real local webhook subscriber: answers each path from a script (then 200), and records what it got. */
public final class Receiver implements AutoCloseable {

    public record Request(String path, Map<String, String> headers, String body, long atNanos, int answeredWith) {
        public String header(String name) {
            return headers.get(name.toLowerCase());
        }
    }

    /** With an endless body, the answer streams bytes until the client hangs up (at most 1 GiB). */
    public record Answer(int status, Map<String, String> headers, long delayMillis, boolean endlessBody) {
        public Answer(int status, Map<String, String> headers, long delayMillis) {
            this(status, headers, delayMillis, false);
        }

        public static Answer status(int status) {
            return new Answer(status, Map.of(), 0);
        }

        public static Answer endless(int status) {
            return new Answer(status, Map.of(), 0, true);
        }
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Queue<Answer>> scripts = new ConcurrentHashMap<>();
    private final Map<String, Long> delays = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger peakInFlight = new java.util.concurrent.atomic.AtomicInteger();
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> inFlightByPath = new ConcurrentHashMap<>();
    private final Map<String, java.util.concurrent.atomic.AtomicInteger> peakByPath = new ConcurrentHashMap<>();
    private long unavailableUntilNanos;
    private long outageOnFirstRequestNanos;

    private Receiver(HttpServer server) {
        this.server = server;
    }

    public static Receiver start() {
        return start("127.0.0.1");
    }

    public static Receiver start(String address) {
        return start(address, 32);
    }

    /** A subscriber that answers this many requests at once (each delayed answer holds one). */
    public static Receiver withThreads(int threads) {
        return start("127.0.0.1", threads);
    }

    private static Receiver start(String address, int threads) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(address, 0), 1000);
            Receiver receiver = new Receiver(server);
            server.createContext("/", receiver::handle);
            server.setExecutor(Executors.newFixedThreadPool(threads));
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public String url(String path) {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort() + path;
    }

    /** Every request to this path, once its script is used up, is answered after this delay (a slow subscriber). */
    public void slow(String path, long delayMillis) {
        delays.put(path, delayMillis);
    }

    /** The next requests to this path get these answers, in order; after them, 200. */
    public void script(String path, Answer... answers) {
        scripts.computeIfAbsent(path, p -> new ConcurrentLinkedQueue<>()).addAll(List.of(answers));
    }

    /**
     * Every request answers 503 for this long (a subscriber outage) from the first request on, however long that
     * request takes to come; then the scripts apply again.
     */
    public synchronized void unavailableFromFirstRequestFor(java.time.Duration outage) {
        outageOnFirstRequestNanos = outage.toNanos();
    }

    private synchronized long unavailableUntil(long at) {
        if (outageOnFirstRequestNanos > 0) {
            unavailableUntilNanos = at + outageOnFirstRequestNanos;
            outageOnFirstRequestNanos = 0;
        }
        return unavailableUntilNanos;
    }

    public List<Request> requests(String path) {
        return requests.stream().filter(request -> request.path().equals(path)).toList();
    }

    /** The most requests this receiver was answering at once, overall and on one path. */
    public int peakInFlight() {
        return peakInFlight.get();
    }

    public int peakInFlight(String path) {
        return peakByPath.getOrDefault(path, new java.util.concurrent.atomic.AtomicInteger()).get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String requested = exchange.getRequestURI().getPath();
        java.util.concurrent.atomic.AtomicInteger onPath = inFlightByPath.computeIfAbsent(requested, p -> new java.util.concurrent.atomic.AtomicInteger());
        peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        peakByPath.computeIfAbsent(requested, p -> new java.util.concurrent.atomic.AtomicInteger()).accumulateAndGet(onPath.incrementAndGet(), Math::max);
        // Out of flight before the answer is written: once it is, the sender may post again before a finally runs.
        Runnable answering = new Runnable() {
            private boolean done;

            @Override
            public void run() {
                if (!done) {
                    done = true;
                    inFlight.decrementAndGet();
                    onPath.decrementAndGet();
                }
            }
        };
        try {
            answer(exchange, answering);
        } finally {
            answering.run();
        }
    }

    private void answer(HttpExchange exchange, Runnable answering) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> headers = new HashMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), String.join(",", values)));
        String path = exchange.getRequestURI().getPath();
        long at = System.nanoTime();
        Queue<Answer> script = scripts.get(path);
        Answer answer = at < unavailableUntil(at) ? Answer.status(503)
                : script == null || script.isEmpty() ? new Answer(200, Map.of(), delays.getOrDefault(path, 0L)) : script.poll();
        requests.add(new Request(path, headers, body, at, answer.status()));
        if (answer.delayMillis() > 0) {
            try {
                Thread.sleep(answer.delayMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        byte[] reply = ("answered " + answer.status()).getBytes(StandardCharsets.UTF_8);
        answering.run();
        try {
            if (answer.endlessBody()) {
                exchange.sendResponseHeaders(answer.status(), 0);
                byte[] chunk = new byte[8192];
                java.util.Arrays.fill(chunk, (byte) 'x');
                for (long written = 0; written < (1L << 30); written += chunk.length) {
                    exchange.getResponseBody().write(chunk);
                }
            } else {
                exchange.sendResponseHeaders(answer.status(), reply.length);
                exchange.getResponseBody().write(reply);
            }
        } catch (IOException clientGaveUp) {
            // the sender timed out first; that is what some tests want
        } finally {
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
