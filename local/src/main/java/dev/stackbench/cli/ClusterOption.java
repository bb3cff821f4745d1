package dev.stackbench.cli;

import picocli.CommandLine.Option;

/** The namespace of the cluster resources a results command names (benchmarkrun/NAME, benchmarkcomparison/NAME). */
final class ClusterOption {

    @Option(
            names = {"-n", "--namespace"},
            paramLabel = "NAMESPACE",
            description = "namespace of the benchmarkrun/NAME and benchmarkcomparison/NAME arguments, read from the"
                    + " cluster of your kubeconfig with kubectl (default: its current context's namespace)")
    String namespace;
}
