package dev.stackbench.lifecycle;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.api.run.BenchmarkRunSpec;

/**
 * A run as both modes execute it: its identity and its spec with every default filled in, once. The spec is a copy
 * of its own, so what created the run can change its object without changing the run in flight, and nothing that
 * holds a {@code ResolvedRun} needs to copy or default the spec again. Treat {@link #spec()} as read-only: the spec
 * classes are the CRD's mutable POJOs, and a writer would change the run for every later reader.
 *
 * @param generation the metadata.generation the spec came from; null outside a cluster
 */
public record ResolvedRun(String name, String namespace, Long generation, BenchmarkRunSpec spec) {

    /** The run with its spec copied and defaulted. */
    public static ResolvedRun of(BenchmarkRun run) {
        return of(run, run.getSpec());
    }

    /** The run with {@code spec} (e.g. the one it started with) copied and defaulted. */
    public static ResolvedRun of(BenchmarkRun run, BenchmarkRunSpec spec) {
        return new ResolvedRun(
                run.getMetadata().getName(),
                run.getMetadata().getNamespace(),
                run.getMetadata().getGeneration(),
                BenchmarkRunDefaults.apply(copy(spec)));
    }

    /** Whether the run is a sweep or a capacity search: several loads against one target. */
    public boolean stepped() {
        return spec.getWorkload().isStepped();
    }

    /** The load of an ordinary run: step 0, at the run's own spec. */
    public LoadStep plainLoad() {
        return LoadStep.plain(spec);
    }

    /** The load of step {@code number} (1 for the first) of a sweep or a capacity search, at {@code level}. */
    public LoadStep step(int number, int level) {
        return new LoadStep(
                number,
                level,
                SteppedLoad.unit(spec.getWorkload()),
                SteppedLoad.maxSteps(spec.getWorkload()),
                SteppedLoad.specFor(spec, level));
    }

    private static BenchmarkRunSpec copy(BenchmarkRunSpec spec) {
        try {
            return BenchmarkRuns.yamlMapper()
                    .treeToValue(BenchmarkRuns.yamlMapper().valueToTree(spec), BenchmarkRunSpec.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot copy a BenchmarkRun spec", e);
        }
    }
}
