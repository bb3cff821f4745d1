package dev.stackbench.delay;

import dev.stackbench.targets.common.ApiException;
import dev.stackbench.targets.common.DelayItemsRequest;
import dev.stackbench.targets.common.Item;
import dev.stackbench.targets.common.Limits;
import dev.stackbench.targets.common.RSocketDelayClient;
import java.time.Duration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.messaging.handler.annotation.MessageExceptionHandler;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.invocation.MethodArgumentResolutionException;
import org.springframework.stereotype.Controller;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The RSocket route {@value RSocketDelayClient#ROUTE}: a request-stream of {@code count} items, each {@code ms}
 * after the previous one. Like {@code GET /delay}, every wait is a timer (Mono.delay), never a sleeping thread. The
 * items are the seeded items 1..count, computed with the seed's formula ({@link Item#seeded}): the delay service has
 * no database.
 */
@Controller
class DelayItemsController {

    private final UpstreamCalls calls;

    DelayItemsController(UpstreamCalls calls) {
        this.calls = calls;
    }

    @MessageMapping(RSocketDelayClient.ROUTE)
    Flux<Item> items(DelayItemsRequest request) {
        if (request.ms() == null || request.count() == null) {
            return refused("ms and count are both required");
        }
        int delayMs;
        int count;
        try {
            delayMs = Limits.delayMs("ms", request.ms());
            count = Limits.streamItems(request.count());
        } catch (ApiException e) {
            return refused(e.getMessage());
        }
        calls.rsocket();
        Duration gap = Duration.ofMillis(delayMs);
        return Flux.range(1, count).concatMap(id -> Mono.delay(gap).thenReturn(Item.seeded(id)));
    }

    /** A payload that is not the request's JSON object: the error names what to send. */
    @MessageExceptionHandler(MethodArgumentResolutionException.class)
    Flux<Item> unreadable(MethodArgumentResolutionException e) {
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(e);
        String problem = cause.getMessage() == null
                ? cause.getClass().getSimpleName()
                : cause.getMessage().lines().findFirst().orElse("");
        return refused("the payload is not a JSON object {\"ms\":D,\"count\":N} (" + problem + ")");
    }

    private static Flux<Item> refused(String problem) {
        return Flux.error(new IllegalArgumentException(problem + ": " + DelayItemsRequest.USAGE));
    }
}
