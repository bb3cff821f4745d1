package dev.stackbench.delay;

import dev.stackbench.targets.common.Limits;
import java.time.Duration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Answers after the requested delay. The wait is a timer (Mono.delay), not a sleeping thread, so any number of
 * requests can wait at once and the delay service is never the bottleneck of an experiment.
 */
@RestController
class DelayController {

    record DelayResponse(int delayMs) {}

    private final UpstreamCalls calls;

    DelayController(UpstreamCalls calls) {
        this.calls = calls;
    }

    @GetMapping("/delay")
    Mono<DelayResponse> delay(@RequestParam int ms) {
        int delayMs = Limits.delayMs("ms", ms);
        calls.http();
        return Mono.delay(Duration.ofMillis(delayMs)).thenReturn(new DelayResponse(delayMs));
    }
}
