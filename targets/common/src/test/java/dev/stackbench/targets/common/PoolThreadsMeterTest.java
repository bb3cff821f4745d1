package dev.stackbench.targets.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PoolThreadsMeterTest {

    @Test
    void countsTheLiveThreadsWhoseNameHasThePoolsPrefix() throws InterruptedException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new PoolThreadsMeter("test-pool", "test-pool-worker-").bindTo(registry);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> workers = IntStream.rangeClosed(1, 3)
                .mapToObj(n -> Thread.ofPlatform().name("test-pool-worker-" + n).start(() -> await(release)))
                .toList();
        Thread other = Thread.ofPlatform().name("test-pool-other").start(() -> await(release));

        assertThat(registry.get(PoolThreadsMeter.NAME)
                        .tag("pool", "test-pool")
                        .gauge()
                        .value())
                .isEqualTo(3);

        release.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        other.join();
        assertThat(registry.get(PoolThreadsMeter.NAME).gauge().value()).isZero();
    }

    @Test
    void theHousekeepingThreadsOfAPoolAreNotWorkers() {
        PoolThreadsMeter meter = new PoolThreadsMeter("boundedElastic", "boundedElastic-");

        assertThat(meter.isWorker("boundedElastic-12")).isTrue();
        assertThat(meter.isWorker("boundedElastic-evictor-1")).isFalse();
        assertThat(meter.isWorker("boundedElastic-")).isFalse();
        assertThat(meter.isWorker("parallel-1")).isFalse();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
