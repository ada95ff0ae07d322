package dev.hookfan.bench;

import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The events' data: a counter, the publish time in epoch microseconds ("t", which the latency phase reads back), and
 * random base64 up to the chosen size ("pad"): incompressible, as neither pglz nor LZ4 finds repeats in it.
 */
final class Payload {

    /** Bytes of each event's data; bench/run.sh --payload-bytes, 1 KB by default (PerfTest gets messages of the same size). */
    static int dataBytes = 1024;

    private Payload() {
    }

    static String data(int n, long publishedMicros) {
        String head = "{\"n\":" + n + ",\"t\":" + publishedMicros + ",\"pad\":\"";
        int padding = Math.max(0, dataBytes - head.length() - 2);
        byte[] random = new byte[padding * 3 / 4 + 3];
        ThreadLocalRandom.current().nextBytes(random);
        return head + Base64.getEncoder().encodeToString(random).substring(0, padding) + "\"}";
    }
}
