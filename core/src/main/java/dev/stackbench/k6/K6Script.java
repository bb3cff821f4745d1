package dev.stackbench.k6;

import java.time.Duration;

/**
 * A generated k6 script and the timing facts runners need around it.
 *
 * @param text the JavaScript module
 * @param warmup load before measuring (zero: no warmup scenario)
 * @param measured length of the measured window; every reported rate divides by it
 * @param gracefulStop how long k6 lets in-flight iterations finish after each scenario
 * @param requestsPerIteration HTTP requests one iteration sends (orders: create then pay)
 * @param preAllocatedVUs VUs an arrival-rate executor starts with (0 for vus executors)
 * @param maxVUs most VUs the measure scenario may use
 */
public record K6Script(
        String text,
        Duration warmup,
        Duration measured,
        Duration gracefulStop,
        int requestsPerIteration,
        int preAllocatedVUs,
        int maxVUs) {

    /** Upper bound of the k6 run's wall time, for runner timeouts (warmup + measured + graceful stop). */
    public Duration expectedMaxRunTime() {
        return warmup.plus(measured).plus(gracefulStop);
    }
}
