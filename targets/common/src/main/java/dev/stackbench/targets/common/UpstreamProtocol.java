package dev.stackbench.targets.common;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a variant reaches the delay service for one request: HTTP ({@code GET /delay}, the default) or RSocket (the
 * request-stream route {@value RSocketDelayClient#ROUTE} over one multiplexed WebSocket connection).
 */
public enum UpstreamProtocol {
    HTTP,
    RSOCKET;

    /** The spelling of the {@code protocol} parameter and of the answer's {@code protocol} field. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The protocol of the request's {@code protocol} parameter: HTTP when it is left out, a 400 for any other word. */
    public static UpstreamProtocol choose(String requested) {
        if (requested == null) {
            return HTTP;
        }
        String normalized = requested.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(protocol -> protocol.name().equals(normalized))
                .findFirst()
                .orElseThrow(() -> ApiException.badRequest("protocol must be "
                        + Arrays.stream(values()).map(UpstreamProtocol::value).collect(Collectors.joining(" or "))
                        + ", got '" + requested + "': the protocol of the calls to the delay service, "
                        + HTTP.value() + " when protocol is left out"));
    }
}
