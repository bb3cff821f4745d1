package dev.stackbench.api.comparison;

import dev.stackbench.api.BenchmarkRuns;
import java.nio.file.Path;
import java.util.List;

/** Reads BenchmarkComparison YAML or JSON, with the strictness and messages of {@link BenchmarkRuns}. */
public final class BenchmarkComparisons {

    private BenchmarkComparisons() {}

    /** Reads every BenchmarkComparison in a file, in order. Defaults are not applied ({@link ComparisonDefaults}). */
    public static List<BenchmarkComparison> read(Path file) {
        return read(BenchmarkRuns.text(file), file.toString());
    }

    /** Reads every BenchmarkComparison in a YAML or JSON text; {@code source} names it in error messages. */
    public static List<BenchmarkComparison> read(String text, String source) {
        return BenchmarkRuns.readAll(text, source, BenchmarkComparison.class, BenchmarkComparison.KIND);
    }
}
