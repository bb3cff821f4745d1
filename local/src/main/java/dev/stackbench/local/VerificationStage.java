package dev.stackbench.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.status.VerificationResult;
import dev.stackbench.lifecycle.RunProgress;
import dev.stackbench.verification.VerificationLoad;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The verification of a local run before its load: the work per request counted by {@link WorkVerifier}, or, in a
 * comparison's later repetition of the same spec and jar, the verification of the repetition that counted it. A
 * target that does other work than its scenario asks for fails the run before any load.
 */
final class VerificationStage {

    private static final ObjectMapper COPIES = new ObjectMapper();

    private final WorkVerifier verifier;
    private final LocalBackend backend;
    private final String run;
    private final String jar;
    private final ResultsLayout.RunFiles files;
    private final Consumer<String> say;

    /**
     * @param backend the comparison's shared backend, which remembers its verifications; null for a run alone
     * @param jar the target's jar, part of what a verification stands for
     * @param say prints a line of the run's progress
     */
    VerificationStage(
            WorkVerifier verifier,
            LocalBackend backend,
            String run,
            String jar,
            ResultsLayout.RunFiles files,
            Consumer<String> say) {
        this.verifier = verifier;
        this.backend = backend;
        this.run = run;
        this.jar = jar;
        this.files = files;
        this.say = say;
    }

    /** Verifies the run's work into its status, or fails the run when the target does different work. */
    void verify(ProcessSupervisor supervisor, BenchmarkRunSpec spec, String customModule, RunProgress progress)
            throws IOException {
        String key = key(spec);
        Optional<LocalBackend.Verified> before = backend == null ? Optional.empty() : backend.verifiedBefore(key);
        if (before.isPresent()) {
            // A comparison's later repetition: same spec, same jar, so the same work as the repetition that counted it.
            VerificationResult reused = COPIES.convertValue(before.get().result(), VerificationResult.class);
            reused.setVerifiedBy(before.get().run());
            progress.status().setVerification(reused);
            progress.note(
                    "WorkVerified",
                    reused.getVerdict() + " as verified by " + before.get().run()
                            + " (the same spec and target jar; a comparison verifies each variant once)");
            return;
        }
        say.accept("verifying the work per request (" + VerificationLoad.COUNTED_ITERATIONS + " iterations, "
                + VerificationLoad.CALLERS + " callers)");
        VerificationResult verification = verifier.verify(supervisor, spec, customModule, files);
        progress.status().setVerification(verification);
        VerificationTable.render(List.of(new VerificationTable.Row(run, verification)))
                .lines()
                .forEach(say);
        if (VerificationResult.DIFFERS.equals(verification.getVerdict())) {
            throw new LocalRunException(
                    RunProgress.VERIFICATION_FAILED,
                    "the target did not do the scenario's work per request, so no load was sent: "
                            + verification.getMessage() + " (counts in " + files.verification() + ")");
        }
        progress.note("WorkVerified", verification.getVerdict() + ": " + verification.getMessage());
        if (backend != null) {
            backend.verifiedNow(key, run, verification);
        }
    }

    /** What a verification stands for: the run's spec and the jar of its target. */
    private String key(BenchmarkRunSpec spec) {
        try {
            return jar + "\n" + COPIES.writeValueAsString(spec);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
