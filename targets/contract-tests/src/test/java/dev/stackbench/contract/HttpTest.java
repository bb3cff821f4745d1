package dev.stackbench.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request the server never sees on its connection is asked again on a new one: a server on 127.0.0.1 that reads the
 * first connection's request and never answers it, and answers every later connection.
 */
class HttpTest {

    private final ServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    HttpTest() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::serve);
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    @Test
    void aGetUnansweredOnItsConnectionIsAskedAgainOnANewOne() {
        try (Http http = new Http()) {
            Http.Response response = http.get(url(), Duration.ofMillis(500));

            assertThat(response.status()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("answered");
            assertThat(connections.get())
                    .as("the stalled connection, then a new one")
                    .isEqualTo(2);
        }
    }

    @Test
    void aPostIsNotSentTwice() {
        try (Http http = new Http()) {
            assertThatThrownBy(() -> http.send(Http.request(url())
                            .timeout(Duration.ofMillis(500))
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}"))
                            .build()))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("POST");
            assertThat(connections.get()).isEqualTo(1);
        }
    }

    private String url() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/x";
    }

    private void serve() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                boolean stall = connections.incrementAndGet() == 1;
                Thread.ofVirtual().start(() -> answer(socket, stall));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void answer(Socket socket, boolean stall) {
        try (socket) {
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return;
                }
                head.append((char) b);
            }
            if (stall) {
                // Read, never answered: the request is held until the client gives up.
                in.read();
                return;
            }
            byte[] body = "answered".getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            // The client went away.
        }
    }
}
