package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RunArtifactsTest {

    @Test
    void keepsEntriesInOrderWhileTheyFitAndSaysWhatWasLeftOut() {
        byte[] incompressible = new byte[RunArtifacts.BUDGET];
        new Random(7).nextBytes(incompressible);
        Map<String, String> stored = new TreeMap<>();
        StringBuilder index = new StringBuilder();

        RunArtifacts.fill(
                stored,
                index,
                "",
                List.of(
                        RunArtifacts.Entry.text("k6-script.js", "export default function () {}"),
                        new RunArtifacts.Entry("k6-per-second.ndjson", incompressible),
                        RunArtifacts.Entry.text("pod-cpu.txt", "cpu")));

        assertThat(stored).containsOnlyKeys("k6-script.js", "pod-cpu.txt");
        assertThat(stored.values().stream().mapToInt(String::length).sum()).isLessThanOrEqualTo(RunArtifacts.BUDGET);
        assertThat(index.toString())
                .contains("kept k6-script.js")
                .contains("left out k6-per-second.ndjson: " + RunArtifacts.BUDGET + " bytes compressed")
                .contains("kept pod-cpu.txt");

        // A step's entries join the run's under their own prefix; the same key again replaces its value.
        RunArtifacts.fill(stored, index, "step-02.", List.of(RunArtifacts.Entry.text("k6-script.js", "step two")));
        RunArtifacts.fill(stored, index, "", List.of(RunArtifacts.Entry.text("pod-cpu.txt", "cpu again")));
        assertThat(stored).containsOnlyKeys("k6-script.js", "pod-cpu.txt", "step-02.k6-script.js");
    }
}
