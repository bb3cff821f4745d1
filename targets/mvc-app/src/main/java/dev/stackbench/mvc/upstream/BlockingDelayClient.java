package dev.stackbench.mvc.upstream;

import java.net.http.HttpClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The delay service through RestClient on the JDK's HttpClient: a blocking call that holds the calling thread (or,
 * on a virtual thread, unmounts it) until the answer arrives. The JDK client opens as many connections as there
 * are concurrent calls, so the client itself never caps concurrency.
 */
@Component
@Profile({"mvc-jdbc", "mvc-virtual-threads"})
public class BlockingDelayClient {

    private final RestClient restClient;

    BlockingDelayClient(RestClient.Builder builder, @Value("${stackbench.upstream.url}") String delayServiceUrl) {
        // HTTP/1.1 explicitly: the default (HTTP/2) would try an h2c upgrade on every new connection.
        HttpClient httpClient =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        this.restClient = builder.baseUrl(delayServiceUrl)
                .requestFactory(new JdkClientHttpRequestFactory(httpClient))
                .build();
    }

    public void delay(int delayMs) {
        restClient.get().uri("/delay?ms={ms}", delayMs).retrieve().toBodilessEntity();
    }
}
