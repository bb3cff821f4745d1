package dev.stackbench.cli;

import dev.stackbench.local.ClusterResults;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The results that `stackbench report` and `stackbench compare` read, as named on the command line: results
 * directories on this machine, and a cluster's {@code benchmarkrun/NAME} or {@code benchmarkcomparison/NAME} (with
 * {@code -n NAMESPACE}), which are fetched with kubectl into the same layout first (under
 * results/cluster/NAMESPACE/, replaced on each fetch) and then read by the same code.
 */
final class ResultsArguments {

    /** Where fetched cluster runs are written, below the working directory. */
    static final Path CLUSTER_RESULTS = Path.of("results", "cluster");

    private ResultsArguments() {}

    /** The directories named; none of them may name a cluster resource. */
    static List<Path> directories(List<String> sources) {
        return directories(sources, null, null, null);
    }

    /**
     * The directories named, a cluster's runs fetched first.
     *
     * @param namespace the namespace of cluster resources (-n), null for the kubeconfig context's
     * @param kubectl how to call kubectl, null when the command line names no cluster resource
     * @param warnings where to say what a fetched run lacks
     * @throws IllegalArgumentException for a source that cannot be read, saying why and what to pass
     */
    static List<Path> directories(
            List<String> sources, String namespace, ClusterResults.Kubectl kubectl, PrintWriter warnings) {
        List<Path> directories = new ArrayList<>();
        for (String source : sources) {
            String lower = source.toLowerCase(Locale.ROOT);
            boolean run = lower.startsWith("benchmarkrun/") || lower.startsWith("br/");
            boolean comparison = lower.startsWith("benchmarkcomparison/") || lower.startsWith("bc/");
            if (Files.exists(Path.of(source)) || !(run || comparison)) {
                directories.add(Path.of(source));
                continue;
            }
            if (kubectl == null) {
                throw new IllegalArgumentException(source + " names a cluster resource: this command reads results"
                        + " directories on this machine; pass the directory ./stackbench run wrote, e.g."
                        + " results/20261127-101500");
            }
            String name = source.substring(source.indexOf('/') + 1);
            String ns = namespace == null || namespace.isBlank() ? currentNamespace(kubectl) : namespace;
            try {
                if (run) {
                    directories.add(
                            fetch(kubectl, ns, name, CLUSTER_RESULTS.resolve(ns).resolve(name), warnings));
                } else {
                    for (String member : ClusterResults.comparisonRuns(kubectl, ns, name)) {
                        directories.add(fetch(
                                kubectl,
                                ns,
                                member,
                                CLUSTER_RESULTS.resolve(ns).resolve(name).resolve(member),
                                warnings));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot write the fetched results of " + source + ": " + e.getMessage(), e);
            }
        }
        return directories;
    }

    private static Path fetch(
            ClusterResults.Kubectl kubectl, String namespace, String name, Path dir, PrintWriter warnings)
            throws IOException {
        for (String warning : ClusterResults.fetch(kubectl, namespace, name, dir)) {
            if (warnings != null) {
                warnings.println("stackbench: " + warning);
            }
        }
        if (warnings != null) {
            warnings.println(
                    "stackbench: fetched benchmarkrun/" + name + " from namespace " + namespace + " into " + dir);
            warnings.flush();
        }
        return dir;
    }

    /** The namespace of the kubeconfig's current context, "default" when it names none. */
    private static String currentNamespace(ClusterResults.Kubectl kubectl) {
        String namespace;
        try {
            namespace = kubectl.get(List.of("config", "view", "--minify", "--output", "jsonpath={..namespace}"))
                    .strip();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot tell which namespace to read (" + e.getMessage() + "): pass"
                    + " -n NAMESPACE, and check that kubectl reaches the cluster (kubectl get benchmarkruns)");
        }
        return namespace.isEmpty() ? "default" : namespace;
    }
}
