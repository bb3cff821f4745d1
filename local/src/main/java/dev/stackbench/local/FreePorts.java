package dev.stackbench.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/** Hands out ports that are free on 127.0.0.1, never the same one twice in one run. */
public final class FreePorts {

    private final Set<Integer> given = new HashSet<>();

    public synchronized int next() {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (given.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("no free port on 127.0.0.1: " + e.getMessage(), e);
            }
        }
        throw new IllegalStateException("could not find an unused port on 127.0.0.1 after 50 attempts");
    }
}
