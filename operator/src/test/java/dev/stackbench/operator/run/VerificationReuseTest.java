package dev.stackbench.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.CleanupPolicy;
import dev.stackbench.api.run.DatabaseSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.api.run.ResourcesSpec;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.operator.ExampleRuns;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
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

    @Test
    void aRepetitionTakesTheVerdictOfItsComparisonsRunOfTheSameSpecAndOpensItsServiceFromTheStart() {
        BenchmarkRun first = verified("demo-webflux-r2dbc-r1", "2026-11-28T10:00:00Z", IMAGE, inComparison("uid-1"));
        BenchmarkRun second = run("demo-webflux-r2dbc-r2", inComparison("uid-1"));
        BenchmarkRun otherComparison = run("demo-webflux-r2dbc-r1", inComparison("uid-2"));
        BenchmarkRun otherLoad = run(
                "demo-webflux-r2dbc-r3",
                inComparison("uid-1")
                        .andThen(r -> r.getSpec().getWorkload().getLoad().setRate(300)));
        List<BenchmarkRun> all = List.of(first, second, otherComparison, otherLoad);

        assertThat(VerificationReuse.repetition(second, all)).contains(first);
        // The comparison's first run of a spec counts, and so does the same spec in another comparison.
        assertThat(VerificationReuse.repetition(first, all)).isEmpty();
        assertThat(VerificationReuse.repetition(otherComparison, all)).isEmpty();
        assertThat(VerificationReuse.repetition(otherLoad, all)).isEmpty();

        // The run that counts holds its runners' gate shut until its verdict; the repetition does not wait for one.
        assertThat(Provisioning.closedUntilVerified(first, all, true)).isTrue();
        assertThat(Provisioning.closedUntilVerified(otherLoad, all, true)).isTrue();
        assertThat(Provisioning.closedUntilVerified(second, all, true)).isFalse();
        // Nothing is verified: nothing to wait for.
        assertThat(Provisioning.closedUntilVerified(first, all, false)).isFalse();
        BenchmarkRun external = run("external", r -> r.getSpec()
                .getBackend()
                .setDatabase(new DatabaseSpec().withExternal(new ExternalDatabaseSpec().withHost("postgres.shared"))));
        assertThat(Provisioning.closedUntilVerified(external, List.of(external), true))
                .isFalse();
    }

    private static Consumer<BenchmarkRun> inComparison(String uid) {
        OwnerReference owner = new OwnerReferenceBuilder()
                .withApiVersion("stackbench.dev/v1alpha1")
                .withKind(BenchmarkComparison.KIND)
                .withName("demo")
                .withUid(uid)
                .withController(true)
                .build();
        return run -> run.getMetadata().setOwnerReferences(List.of(owner));
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
