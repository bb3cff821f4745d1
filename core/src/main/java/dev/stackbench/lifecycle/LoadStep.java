package dev.stackbench.lifecycle;

import dev.stackbench.api.run.BenchmarkRunSpec;
import java.util.Locale;

/**
 * One load sent against the target: an ordinary run's only load (number 0), or one step of a sweep or a capacity
 * search. Its spec is the run's at the step's level with the sweep or the search taken out, so the script generator,
 * the validation and the result reading treat every load as an ordinary run.
 *
 * @param number 0 for an ordinary run, 1 for the first step
 * @param level the step's level (iterations/s or VUs, see {@code unit}); 0 for an ordinary run
 * @param maxSteps the most steps the run can take; 1 for an ordinary run
 */
public record LoadStep(int number, int level, String unit, int maxSteps, BenchmarkRunSpec spec) {

    static LoadStep plain(BenchmarkRunSpec spec) {
        return new LoadStep(0, 0, "", 1, spec);
    }

    /** Whether this load is one step of several. */
    public boolean isStep() {
        return number > 0;
    }

    /** How progress names the load: the run's name, with the step and its level for a step. */
    public String label(String runName) {
        return isStep() ? runName + " step " + number + " (" + level + " " + unit + ")" : runName;
    }

    /** The directory name of a step's files under the run's ({@code step-02-100}). */
    public String directoryName() {
        return String.format(Locale.ROOT, "step-%02d-%d", number, level);
    }
}
