package dev.stackbench.webflux.api;

import dev.stackbench.targets.common.ApiResponse;
import dev.stackbench.targets.common.ApiResponses;
import dev.stackbench.targets.common.FanoutMode;
import dev.stackbench.targets.common.FanoutModes;
import dev.stackbench.targets.common.Limits;
import dev.stackbench.targets.common.OrderRequests.ChangeStatus;
import dev.stackbench.targets.common.OrderRequests.CreateOrder;
import dev.stackbench.targets.common.RSocketDelayClient;
import dev.stackbench.targets.common.ReactiveDelayClient;
import dev.stackbench.targets.common.ReactiveUpstream;
import dev.stackbench.targets.common.UpstreamProtocol;
import dev.stackbench.webflux.store.ReactiveStore;
import org.springframework.context.annotation.Profile;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The contract's endpoints as reactive pipelines. Each answer is built in the step after the work completes, so its
 * {@code thread} is the thread that ran (or completed) that work. The upstream calls go over WebClient or, with
 * {@code protocol=rsocket}, over the RSocket client, composed the same way and never blocked on.
 */
@RestController
@RequestMapping("/api")
@Profile("!webflux-coroutines") // that variant's endpoints are suspend functions (CoroutineApiController)
class ApiController {

    private final ReactiveUpstream upstream;
    private final ReactiveStore store;
    private final InProcessSleep inProcessSleep;
    private final FanoutModes fanoutModes;
    private final ApiResponses responses;

    ApiController(
            ReactiveDelayClient delayService,
            RSocketDelayClient rsocket,
            ReactiveStore store,
            InProcessSleep inProcessSleep,
            FanoutModes fanoutModes,
            ApiResponses responses) {
        this.upstream = new ReactiveUpstream(delayService, rsocket);
        this.store = store;
        this.inProcessSleep = inProcessSleep;
        this.fanoutModes = fanoutModes;
        this.responses = responses;
    }

    @GetMapping("/upstream")
    Mono<ApiResponse> upstream(@RequestParam int delayMs, @RequestParam(required = false) String protocol) {
        Limits.delayMs(delayMs);
        UpstreamProtocol chosen = UpstreamProtocol.choose(protocol);
        return upstream.call(chosen, delayMs).then(Mono.fromSupplier(() -> responses.upstream(delayMs, chosen)));
    }

    @GetMapping("/fanout")
    Mono<ApiResponse> fanout(
            @RequestParam int delayMs,
            @RequestParam int calls,
            @RequestParam(required = false) String mode,
            @RequestParam(required = false) String protocol) {
        Limits.delayMs(delayMs);
        Limits.calls(calls);
        FanoutMode chosen = fanoutModes.choose(mode);
        UpstreamProtocol over = UpstreamProtocol.choose(protocol);
        return upstream.fanout(over, delayMs, calls, chosen)
                .then(Mono.fromSupplier(() -> responses.fanout(delayMs, calls, chosen, over)));
    }

    @GetMapping("/db")
    Mono<ApiResponse> db(@RequestParam int sleepMs) {
        return store.sleep(Limits.sleepMs(sleepMs)).then(Mono.fromSupplier(() -> responses.db(sleepMs)));
    }

    @GetMapping("/sleep")
    Mono<ApiResponse> sleep(@RequestParam int sleepMs) {
        return inProcessSleep
                .sleep(Limits.inProcessSleepMs(sleepMs))
                .then(Mono.fromSupplier(() -> responses.sleep(sleepMs)));
    }

    @GetMapping("/mixed")
    Mono<ApiResponse> mixed(
            @RequestParam int delayMs, @RequestParam int sleepMs, @RequestParam(required = false) String protocol) {
        Limits.delayMs(delayMs);
        Limits.sleepMs(sleepMs);
        UpstreamProtocol chosen = UpstreamProtocol.choose(protocol);
        return upstream.call(chosen, delayMs)
                .then(store.sleep(sleepMs))
                .then(Mono.fromSupplier(() -> responses.mixed(delayMs, sleepMs, chosen)));
    }

    @GetMapping("/rows")
    Mono<ApiResponse> rows(@RequestParam int count) {
        return store.items(Limits.count(count)).map(responses::rows);
    }

    @PostMapping("/orders")
    @ResponseStatus(HttpStatus.CREATED)
    Mono<ApiResponse> createOrder(@RequestBody CreateOrder order) {
        return store.createOrder(order.validated()).map(responses::orderCreated);
    }

    @PutMapping("/orders/{orderId}/status")
    Mono<ApiResponse> changeStatus(@PathVariable long orderId, @RequestBody ChangeStatus change) {
        return store.changeStatus(orderId, change.target()).map(changed -> responses.orderStatus(orderId, changed));
    }
}
