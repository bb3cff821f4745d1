package dev.stackbench.targets.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.channels.Selector;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class EventLoopBlockedMeterTest {

    /**
     * Real threads named as reactor-netty names its event loop: one waits in a real selector (idle), one sleeps and one
     * waits for a latch (both blocked), one computes (running); a sleeping thread of another name is not the loop's.
     */
    @Test
    void countsTheEventLoopThreadsFoundSleepingOrWaitingButNotThoseInTheirSelectorOrRunning() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EventLoopBlockedMeter meter = new EventLoopBlockedMeter("reactor-netty event loop", "reactor-http-", 20);
        meter.bindTo(registry);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch selecting = new CountDownLatch(1);
        try (Selector selector = Selector.open()) {
            Thread idle = Thread.ofPlatform().name("reactor-http-nio-1").start(() -> {
                selecting.countDown();
                while (!stop.get()) {
                    select(selector);
                }
            });
            Thread sleeping = Thread.ofPlatform().name("reactor-http-nio-2").start(() -> sleep(60_000));
            Thread waiting = Thread.ofPlatform().name("reactor-http-epoll-3").start(() -> await(release));
            Thread running = Thread.ofPlatform().name("reactor-http-nio-4").start(() -> {
                long spins = 0;
                while (!stop.get()) {
                    spins++;
                }
                assertThat(spins).isNotNegative();
            });
            Thread other = Thread.ofPlatform().name("parallel-1").start(() -> sleep(60_000));
            selecting.await();
            awaitState(sleeping, Thread.State.TIMED_WAITING);
            awaitState(waiting, Thread.State.WAITING);
            assertThat(meter.blockedNow()).isEqualTo(2);
            // Once the sampler's window holds only samples taken since, the gauge is their mean.
            assertThat(awaitGauge(registry, 2.0)).isEqualTo(2.0);

            stop.set(true);
            release.countDown();
            selector.wakeup();
            sleeping.interrupt();
            other.interrupt();
            for (Thread thread : new Thread[] {idle, sleeping, waiting, running, other}) {
                thread.join();
            }
        }
        assertThat(awaitGauge(registry, 0.0)).isZero();
        meter.close();
    }

    @Test
    void aThreadReadingItsJdbcSocketIsBlockedThoughRunnable() {
        StackTraceElement[] jdbcRead = {
            frame("sun.nio.ch.Net", "poll"),
            frame("sun.nio.ch.NioSocketImpl", "park"),
            frame("sun.nio.ch.NioSocketImpl", "implRead"),
            frame("java.net.Socket$SocketInputStream", "read"),
            frame("org.postgresql.core.VisibleBufferedInputStream", "readMore"),
            frame("org.postgresql.core.PGStream", "receiveChar"),
            frame("io.netty.channel.nio.NioIoHandler", "run")
        };
        assertThat(EventLoopBlockedMeter.blocked(Thread.State.RUNNABLE, jdbcRead))
                .isTrue();
    }

    @Test
    void aThreadInItsSelectorOrRunningTheLoopsTasksIsNotBlocked() {
        StackTraceElement[] selecting = {
            frame("sun.nio.ch.EPoll", "wait"),
            frame("sun.nio.ch.EPollSelectorImpl", "doSelect"),
            frame("sun.nio.ch.SelectorImpl", "lockAndDoSelect"),
            frame("io.netty.channel.nio.NioIoHandler", "select")
        };
        StackTraceElement[] nativeEpoll = {
            frame("io.netty.channel.epoll.Native", "epollWait0"),
            frame("io.netty.channel.epoll.Native", "epollWait"),
            frame("io.netty.channel.epoll.EpollIoHandler", "epollWait")
        };
        StackTraceElement[] encoding = {
            frame("io.netty.handler.codec.http.HttpObjectEncoder", "encode"),
            frame("io.netty.channel.nio.NioIoHandler", "run")
        };
        assertThat(EventLoopBlockedMeter.blocked(Thread.State.RUNNABLE, selecting))
                .isFalse();
        assertThat(EventLoopBlockedMeter.blocked(Thread.State.RUNNABLE, nativeEpoll))
                .isFalse();
        assertThat(EventLoopBlockedMeter.blocked(Thread.State.RUNNABLE, encoding))
                .isFalse();
        assertThat(EventLoopBlockedMeter.blocked(Thread.State.RUNNABLE, new StackTraceElement[0]))
                .isFalse();
    }

    @Test
    void onlyTheTransportsNumberedThreadsAreTheLoops() {
        EventLoopBlockedMeter meter = new EventLoopBlockedMeter("reactor-netty event loop", "reactor-http-");

        assertThat(meter.isEventLoop("reactor-http-nio-12")).isTrue();
        assertThat(meter.isEventLoop("reactor-http-epoll-1")).isTrue();
        assertThat(meter.isEventLoop("reactor-http-nio-")).isFalse();
        assertThat(meter.isEventLoop("reactor-http-1")).isFalse();
        assertThat(meter.isEventLoop("boundedElastic-1")).isFalse();
    }

    /** The gauge's value once it reads {@code expected}, or its last value after 5 s. */
    private static double awaitGauge(SimpleMeterRegistry registry, double expected) throws InterruptedException {
        double value = Double.NaN;
        for (int i = 0; i < 250 && value != expected; i++) {
            value = registry.get(PoolThreadsMeter.NAME).gauge().value();
            if (value != expected) {
                Thread.sleep(20);
            }
        }
        return value;
    }

    private static StackTraceElement frame(String className, String method) {
        return new StackTraceElement(className, method, null, -1);
    }

    private static void awaitState(Thread thread, Thread.State state) throws InterruptedException {
        for (int i = 0; i < 500 && thread.getState() != state; i++) {
            Thread.sleep(10);
        }
        assertThat(thread.getState()).as(thread.getName()).isEqualTo(state);
    }

    private static void select(Selector selector) {
        try {
            selector.select(1_000);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
