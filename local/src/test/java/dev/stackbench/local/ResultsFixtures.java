package dev.stackbench.local;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The results directories real local runs wrote (src/test/resources/results), copied where a test may change them. */
public final class ResultsFixtures {

    private ResultsFixtures() {}

    /** The checked-in directory {@code name} (plain, again, sweep, comparison). */
    public static Path of(String name) throws URISyntaxException {
        return Path.of(ResultsFixtures.class.getResource("/results/" + name).toURI());
    }

    /** A copy of the checked-in directory {@code name} under {@code parent}, made once. */
    public static Path copy(String name, Path parent) throws IOException, URISyntaxException {
        Path source = of(name);
        Path copy = parent.resolve(name);
        if (Files.exists(copy)) {
            return copy;
        }
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = copy.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return copy;
    }
}
