package dev.stackbench.local;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Results directories named on the command line, read back: an invocation's directory (results/&lt;time&gt;, its
 * numbered run directories and, for repetitions, comparison.json) or a single run's directory. Anything that lays
 * out a run's files the same way, e.g. a cluster run fetched into a directory, is read by the same code.
 */
public final class ResultsDirectories {

    private static final ObjectMapper JSON =
            new ObjectMapper().findAndRegisterModules().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * One directory's runs.
     *
     * @param root the directory as named
     * @param runs its runs, in the order they ran
     * @param comparison the comparison's status when the runs were repetitions of one, else null
     * @param statistics the comparison's table as it was printed (comparison.txt), else null
     */
    public record Invocation(
            Path root, List<RunResults> runs, BenchmarkComparisonStatus comparison, String statistics) {

        /** The directory's name, which tells runs of different invocations apart. */
        public String name() {
            Path name = root.toAbsolutePath().normalize().getFileName();
            return name == null ? root.toString() : name.toString();
        }
    }

    private ResultsDirectories() {}

    /**
     * Reads every directory.
     *
     * @throws IllegalArgumentException naming a directory that does not exist or holds no run, and what to pass
     */
    public static List<Invocation> read(List<Path> directories) {
        List<Invocation> invocations = new ArrayList<>();
        for (Path directory : directories) {
            invocations.add(read(directory));
        }
        return invocations;
    }

    static Invocation read(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException(directory + " does not exist or is no directory: pass a results"
                    + " directory ./stackbench run wrote, e.g. results/20261127-101500 or one of its run"
                    + " directories");
        }
        if (RunResults.isRunDirectory(directory)) {
            return new Invocation(directory, List.of(RunResults.read(directory)), null, null);
        }
        List<Path> runDirectories;
        try (Stream<Path> children = Files.list(directory)) {
            runDirectories = children.filter(Files::isDirectory)
                    .filter(RunResults::isRunDirectory)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("could not list " + directory + ": " + e.getMessage(), e);
        }
        if (runDirectories.isEmpty()) {
            throw new IllegalArgumentException(directory + " is not a stackbench results directory: it has no "
                    + String.join(" and ", RunResults.REQUIRED) + " (a run's directory), and no sub-directory that"
                    + " has them (an invocation's directory); pass a directory ./stackbench run wrote, e.g."
                    + " results/20261127-101500 or results/20261127-101500/01-NAME");
        }
        ResultsLayout layout = new ResultsLayout(directory);
        BenchmarkComparisonStatus comparison = null;
        String statistics = null;
        try {
            if (Files.isRegularFile(layout.comparisonStatus())) {
                comparison = JSON.readValue(layout.comparisonStatus().toFile(), BenchmarkComparisonStatus.class);
            }
            if (Files.isRegularFile(layout.repetitionStatistics())) {
                statistics = Files.readString(layout.repetitionStatistics());
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "could not read the comparison in " + directory + ": " + e.getMessage()
                            + "; comparison.json must be the file ./stackbench run --repetitions wrote",
                    e);
        }
        return new Invocation(
                directory, runDirectories.stream().map(RunResults::read).toList(), comparison, statistics);
    }
}
