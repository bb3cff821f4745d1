package dev.stackbench.mvc.api;

import dev.stackbench.mvc.upstream.BlockingDelayClient;
import dev.stackbench.mvc.upstream.VirtualThreadFanout;
import dev.stackbench.targets.common.ApiResponse;
import dev.stackbench.targets.common.ApiResponses;
import dev.stackbench.targets.common.BlockingSleep;
import dev.stackbench.targets.common.FanoutMode;
import dev.stackbench.targets.common.FanoutModes;
import dev.stackbench.targets.common.JdbcStore;
import dev.stackbench.targets.common.Limits;
import dev.stackbench.targets.common.RSocketDelayClient;
import dev.stackbench.targets.common.UpstreamProtocol;
import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * mvc-jdbc and mvc-virtual-threads: the request thread waits for the delay service, then for the database; in the
 * sleep endpoint it sleeps (a Tomcat thread is held, a virtual thread is unmounted from its carrier). Which fan-out
 * modes a variant runs is its {@link FanoutModes}. With {@code protocol=rsocket} the same thread blocks on the RSocket
 * client's Mono ({@code block()}), the reactive client used the blocking way: a Tomcat thread is held for the whole
 * call, a virtual thread is unmounted while it waits.
 */
@RestController
@RequestMapping("/api")
@Profile({"mvc-jdbc", "mvc-virtual-threads"})
class BlockingUpstreamController {

    private final BlockingDelayClient delayService;
    private final RSocketDelayClient rsocket;
    private final JdbcStore store;
    private final FanoutModes fanoutModes;
    private final ApiResponses responses;

    BlockingUpstreamController(
            BlockingDelayClient delayService,
            RSocketDelayClient rsocket,
            JdbcStore store,
            FanoutModes fanoutModes,
            ApiResponses responses) {
        this.delayService = delayService;
        this.rsocket = rsocket;
        this.store = store;
        this.fanoutModes = fanoutModes;
        this.responses = responses;
    }

    @GetMapping("/upstream")
    ApiResponse upstream(@RequestParam int delayMs, @RequestParam(required = false) String protocol) {
        Limits.delayMs(delayMs);
        UpstreamProtocol chosen = UpstreamProtocol.choose(protocol);
        call(chosen, delayMs);
        return responses.upstream(delayMs, chosen);
    }

    /** One call to the delay service on the calling thread, which waits for the answer. */
    private void call(UpstreamProtocol protocol, int delayMs) {
        switch (protocol) {
            case HTTP -> delayService.delay(delayMs);
            case RSOCKET -> rsocket.call(delayMs).block();
        }
    }

    /**
     * Sequential: the request thread makes the calls one after another. Parallel (mvc-virtual-threads only): each
     * call on a virtual thread of its own while the request's thread waits for all of them.
     */
    @GetMapping("/fanout")
    ApiResponse fanout(
            @RequestParam int delayMs,
            @RequestParam int calls,
            @RequestParam(required = false) String mode,
            @RequestParam(required = false) String protocol) {
        Limits.delayMs(delayMs);
        Limits.calls(calls);
        FanoutMode chosen = fanoutModes.choose(mode);
        UpstreamProtocol over = UpstreamProtocol.choose(protocol);
        switch (chosen) {
            case SEQUENTIAL -> {
                for (int call = 0; call < calls; call++) {
                    call(over, delayMs);
                }
            }
            case PARALLEL -> VirtualThreadFanout.runAll(calls, () -> call(over, delayMs));
        }
        return responses.fanout(delayMs, calls, chosen, over);
    }

    @GetMapping("/sleep")
    ApiResponse sleep(@RequestParam int sleepMs) {
        BlockingSleep.sleep(Limits.inProcessSleepMs(sleepMs));
        return responses.sleep(sleepMs);
    }

    @GetMapping("/mixed")
    ApiResponse mixed(
            @RequestParam int delayMs, @RequestParam int sleepMs, @RequestParam(required = false) String protocol) {
        Limits.delayMs(delayMs);
        Limits.sleepMs(sleepMs);
        UpstreamProtocol chosen = UpstreamProtocol.choose(protocol);
        call(chosen, delayMs);
        store.sleep(sleepMs);
        return responses.mixed(delayMs, sleepMs, chosen);
    }
}
