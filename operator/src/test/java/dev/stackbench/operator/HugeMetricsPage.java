package dev.stackbench.operator;

import com.sun.net.httpserver.HttpServer;
import dev.stackbench.operator.objects.TargetDeployment;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A target's management port as a user's image could serve it: /actuator/prometheus of {@code pageBytes} (comment
 * lines, then real meters), on this machine's first non-loopback IPv4 address at the target's management port, where
 * the API server's pod proxy reaches it once the target pod has that address as its IP (the API server refuses to
 * proxy to loopback addresses).
 */
final class HugeMetricsPage implements AutoCloseable {

    private final HttpServer server;
    private final String address;
    private final AtomicInteger requests = new AtomicInteger();

    HugeMetricsPage(long pageBytes) {
        this.address = machineAddress();
        try {
            server = HttpServer.create(new InetSocketAddress(address, TargetDeployment.MANAGEMENT_PORT), 16);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot listen on " + address + ":" + TargetDeployment.MANAGEMENT_PORT + " for the target's"
                            + " metrics page: another process holds that port on every address; stop it",
                    e);
        }
        byte[] padding = new byte[1024 * 1024];
        Arrays.fill(padding, (byte) 'x');
        for (int i = 0; i < padding.length; i += 128) {
            padding[i] = '#';
            padding[i + 127] = '\n';
        }
        byte[] meters = ("jvm_threads_live_threads{application=\"webflux-app\"} 42.0\n"
                        + "process_cpu_usage{application=\"webflux-app\"} 0.25\n")
                .getBytes(StandardCharsets.UTF_8);
        server.createContext("/actuator/", exchange -> {
            requests.incrementAndGet();
            try (exchange) {
                exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
                exchange.sendResponseHeaders(200, 0);
                OutputStream body = exchange.getResponseBody();
                for (long sent = 0; sent < pageBytes; sent += padding.length) {
                    body.write(padding);
                }
                body.write(meters);
            } catch (IOException readerWentAway) {
                // the operator stops reading at its limit: the page is refused there
            }
        });
        server.start();
    }

    /** The address the page listens on. */
    String address() {
        return address;
    }

    /** How many requests the page got. */
    int requests() {
        return requests.get();
    }

    private static String machineAddress() {
        try {
            return NetworkInterface.networkInterfaces()
                    .filter(nic -> {
                        try {
                            return nic.isUp() && !nic.isLoopback();
                        } catch (SocketException e) {
                            return false;
                        }
                    })
                    .flatMap(NetworkInterface::inetAddresses)
                    .filter(a -> a instanceof Inet4Address && !a.isLinkLocalAddress() && !a.isLoopbackAddress())
                    .map(InetAddress::getHostAddress)
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("this machine has no non-loopback IPv4 address for"
                            + " the API server's pod proxy to reach the target's page on"));
        } catch (SocketException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
