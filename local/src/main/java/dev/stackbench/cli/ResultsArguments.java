package dev.stackbench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The results that `stackbench report` and `stackbench compare` read, as named on the command line. Today each is a
 * results directory on this machine; a cluster's BenchmarkRun or BenchmarkComparison (kind/NAME with a namespace)
 * would be fetched into the same layout first and then read by the same code.
 */
final class ResultsArguments {

    private ResultsArguments() {}

    /**
     * The directories named.
     *
     * @throws IllegalArgumentException for an argument that names a cluster resource, which needs a cluster
     */
    static List<Path> directories(List<String> sources) {
        List<Path> directories = new ArrayList<>();
        for (String source : sources) {
            String lower = source.toLowerCase(Locale.ROOT);
            if (!Files.exists(Path.of(source))
                    && (lower.startsWith("benchmarkrun/") || lower.startsWith("benchmarkcomparison/"))) {
                throw new IllegalArgumentException(source + " names a cluster resource: this command reads results"
                        + " directories on this machine; pass the directory ./stackbench run wrote, e.g."
                        + " results/20261127-101500");
            }
            directories.add(Path.of(source));
        }
        return directories;
    }
}
