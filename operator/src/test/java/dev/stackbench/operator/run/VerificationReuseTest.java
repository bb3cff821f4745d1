package dev.stackbench.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.CleanupPolicy;
import dev.stackbench.api.run.ResourcesSpec;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.operator.ExampleRuns;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class VerificationReuseTest {

    private static final String IMAGE = "docker.io/stackbench/webflux-app@sha256:aaaa";

    @Test
    void aRunWithTheSameWorkUnderAnotherLoadTakesTheVerdictOfTheSameImage() {
        BenchmarkRun earlier = verified("first", "2026-11-28T10:00:00Z", IMAGE, run -> {});
        BenchmarkRun later = run("second", spec -> {
            spec.getSpec().getWorkload().getLoad().setRate(300);
            spec.getSpec().getWorkload().setDuration("5s");
            spec.getSpec().getWorkload().setWarmup("1s");
            spec.getSpec().getWorkload().setRunnerResources(new ResourcesSpec().withCpu("50m"));
            spec.getSpec().setCleanup(CleanupPolicy.NEVER);
            spec.getSpec().setTimeout("30m");
        });

        assertThat(VerificationReuse.candidates(later, List.of(earlier, later))).containsExactly(earlier);
        assertThat(VerificationReuse.source(later, List.of(earlier, later), IMAGE))
                .contains(earlier);
        // Another build of the target under the same tag: counted again.
        assertThat(VerificationReuse.source(later, List.of(earlier), "docker.io/stackbench/webflux-app@sha256:bbbb"))
                .isEmpty();
    }

    @Test
    void whatChangesTheWorkOrItsTargetMeansCountingAgain() {
        BenchmarkRun earlier = verified("first", "2026-11-28T10:00:00Z", IMAGE, run -> {});

        assertThat(VerificationReuse.candidates(
                        run("delay", r -> r.getSpec().getWorkload().setUpstreamDelay("50ms")), List.of(earlier)))
                .isEmpty();
        assertThat(VerificationReuse.candidates(
                        run("jvm", r -> r.getSpec().getTarget().setJvmOptions("-XX:+UseParallelGC")), List.of(earlier)))
                .isEmpty();
        assertThat(VerificationReuse.candidates(
                        run("variant", r -> r.getSpec().getTarget().setVariant("mvc-jdbc")), List.of(earlier)))
                .isEmpty();
        BenchmarkRun elsewhere = run("elsewhere", r -> r.getMetadata().setNamespace("other"));
        assertThat(VerificationReuse.candidates(elsewhere, List.of(earlier))).isEmpty();
    }

    @Test
    void onlyAVerdictOfSameWorkRecordedWithItsImageIsTakenTheEarliestFirst() {
        BenchmarkRun differs = verified("differs", "2026-11-28T09:00:00Z", IMAGE, r -> r.getStatus()
                .getVerification()
                .setVerdict(VerificationResult.DIFFERS));
        BenchmarkRun noImage = verified("no-image", "2026-11-28T09:30:00Z", null, r -> {});
        BenchmarkRun second = verified("b-second", "2026-11-28T10:05:00Z", IMAGE, r -> {});
        BenchmarkRun first = verified("a-first", "2026-11-28T10:00:00Z", IMAGE, r -> {});
        BenchmarkRun run = run("new", r -> {});

        assertThat(VerificationReuse.candidates(run, List.of(differs, noImage, second, first)))
                .containsExactly(first, second);
        assertThat(VerificationReuse.source(run, List.of(second, first, run), IMAGE))
                .contains(first);
    }

    private static BenchmarkRun run(String name, Consumer<BenchmarkRun> change) {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getMetadata().setName(name);
        change.accept(run);
        return run;
    }

    private static BenchmarkRun verified(String name, String created, String image, Consumer<BenchmarkRun> change) {
        BenchmarkRun run = run(name, r -> {});
        run.getMetadata().setCreationTimestamp(created);
        VerificationResult verification = new VerificationResult();
        verification.setVerdict(VerificationResult.SAME_WORK);
        verification.setTargetImage(image);
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.setVerification(verification);
        run.setStatus(status);
        change.accept(run);
        return run;
    }
}
