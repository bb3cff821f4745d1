package dev.stackbench.mvc.api;

import dev.stackbench.mvc.upstream.BlockingDelayClient;
import dev.stackbench.targets.common.ApiResponse;
import dev.stackbench.targets.common.ApiResponses;
import dev.stackbench.targets.common.BlockingSleep;
import dev.stackbench.targets.common.JdbcStore;
import dev.stackbench.targets.common.Limits;
import org.springframework.context.annotation.Profile;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * mvc-jdbc and mvc-virtual-threads: the request thread waits for the delay service, then for the database; in the
 * sleep endpoint it sleeps (a Tomcat thread is held, a virtual thread is unmounted from its carrier).
 */
@RestController
@RequestMapping("/api")
@Profile({"mvc-jdbc", "mvc-virtual-threads"})
class BlockingUpstreamController {

    private final BlockingDelayClient delayService;
    private final JdbcStore store;
    private final ApiResponses responses;

    BlockingUpstreamController(BlockingDelayClient delayService, JdbcStore store, ApiResponses responses) {
        this.delayService = delayService;
        this.store = store;
        this.responses = responses;
    }

    @GetMapping("/upstream")
    ApiResponse upstream(@RequestParam int delayMs) {
        delayService.delay(Limits.delayMs(delayMs));
        return responses.upstream(delayMs);
    }

    @GetMapping("/sleep")
    ApiResponse sleep(@RequestParam int sleepMs) {
        BlockingSleep.sleep(Limits.inProcessSleepMs(sleepMs));
        return responses.sleep(sleepMs);
    }

    @GetMapping("/mixed")
    ApiResponse mixed(@RequestParam int delayMs, @RequestParam int sleepMs) {
        Limits.delayMs(delayMs);
        Limits.sleepMs(sleepMs);
        delayService.delay(delayMs);
        store.sleep(sleepMs);
        return responses.mixed(delayMs, sleepMs);
    }
}
