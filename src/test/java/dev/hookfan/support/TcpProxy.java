package dev.hookfan.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy that can misbehave as networks do: refuse new connections (closing them at once), or drop the
 * ones it has without a word, as a NAT that forgot a mapping does (bytes read and thrown away, nothing closed).
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int targetPort;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean refusing;

    /** Both directions of one proxied connection; once dropped, it stays dropped. */
    private static final class Link {
        volatile boolean dropped;
    }

    private TcpProxy(int targetPort, boolean refusing) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort;
        this.refusing = refusing;
        Thread acceptor = new Thread(this::acceptAll, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public static TcpProxy to(int targetPort, boolean refusingAtFirst) {
        try {
            return new TcpProxy(targetPort, refusingAtFirst);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted and passed on so far. */
    public int connections() {
        return accepted.get();
    }

    public void refuse(boolean refuse) {
        this.refusing = refuse;
    }

    /** Every connection open now goes silent for good: nothing passes, nothing is closed. New ones work. */
    public void dropSilently() {
        links.forEach(link -> link.dropped = true);
    }

    private void acceptAll() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (refusing) {
                    client.close();
                    continue;
                }
                Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                Link link = new Link();
                links.add(link);
                accepted.incrementAndGet();
                pipe(client, target, link);
                pipe(target, client, link);
            } catch (IOException e) {
                // Closed, or the target refused: the client sees its connection end.
            }
        }
    }

    private static void pipe(Socket from, Socket to, Link link) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int read; (read = in.read(buffer)) >= 0; ) {
                    if (!link.dropped) {
                        out.write(buffer, 0, read);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // One side went away.
            } finally {
                if (!link.dropped) {
                    try {
                        from.close();
                        to.close();
                    } catch (IOException ignored) {
                        // Closing anyway.
                    }
                }
            }
        }, "tcp-proxy-pipe");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // Closing anyway.
        }
    }
}
