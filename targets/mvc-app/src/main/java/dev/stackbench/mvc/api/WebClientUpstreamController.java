package dev.stackbench.mvc.api;

import dev.stackbench.targets.common.ApiResponse;
import dev.stackbench.targets.common.ApiResponses;
import dev.stackbench.targets.common.FanoutMode;
import dev.stackbench.targets.common.FanoutModes;
import dev.stackbench.targets.common.JdbcStore;
import dev.stackbench.targets.common.Limits;
import dev.stackbench.targets.common.RSocketDelayClient;
import dev.stackbench.targets.common.ReactiveDelayClient;
import dev.stackbench.targets.common.ReactiveUpstream;
import dev.stackbench.targets.common.UpstreamProtocol;
import java.time.Duration;
import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * mvc-webclient: returning a Mono makes Spring MVC finish the request asynchronously, so the Tomcat thread goes
 * back to the pool while WebClient waits for the delay service. With {@code protocol=rsocket} the RSocket client's
 * Monos take WebClient's place, composed the same way.
 */
@RestController
@RequestMapping("/api")
@Profile("mvc-webclient")
class WebClientUpstreamController {

    private final ReactiveUpstream upstream;
    private final JdbcStore store;
    private final FanoutModes fanoutModes;
    private final ApiResponses responses;

    WebClientUpstreamController(
            ReactiveDelayClient delayService,
            RSocketDelayClient rsocket,
            JdbcStore store,
            FanoutModes fanoutModes,
            ApiResponses responses) {
        this.upstream = new ReactiveUpstream(delayService, rsocket);
        this.store = store;
        this.fanoutModes = fanoutModes;
        this.responses = responses;
    }

    @GetMapping("/upstream")
    Mono<ApiResponse> upstream(@RequestParam int delayMs, @RequestParam(required = false) String protocol) {
        Limits.delayMs(delayMs);
        UpstreamProtocol chosen = UpstreamProtocol.choose(protocol);
        return upstream.call(chosen, delayMs).then(Mono.fromSupplier(() -> responses.upstream(delayMs, chosen)));
    }

    /** The calls as Monos, all at once or one after another; the Tomcat thread is back in the pool meanwhile. */
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

    /** Waits on Reactor's timer, as it waits for WebClient: the Tomcat thread goes back to the pool meanwhile. */
    @GetMapping("/sleep")
    Mono<ApiResponse> sleep(@RequestParam int sleepMs) {
        return Mono.delay(Duration.ofMillis(Limits.inProcessSleepMs(sleepMs)))
                .then(Mono.fromSupplier(() -> responses.sleep(sleepMs)));
    }

    /**
     * After the upstream call the Tomcat thread is gone and the Mono completes on WebClient's event loop, which
     * must not block; the JDBC part therefore moves to boundedElastic, Reactor's pool for blocking work.
     */
    @GetMapping("/mixed")
    Mono<ApiResponse> mixed(
            @RequestParam int delayMs, @RequestParam int sleepMs, @RequestParam(required = false) String protocol) {
        Limits.delayMs(delayMs);
        Limits.sleepMs(sleepMs);
        UpstreamProtocol chosen = UpstreamProtocol.choose(protocol);
        return upstream.call(chosen, delayMs)
                .then(Mono.fromCallable(() -> {
                            store.sleep(sleepMs);
                            return responses.mixed(delayMs, sleepMs, chosen);
                        })
                        .subscribeOn(Schedulers.boundedElastic()));
    }
}
