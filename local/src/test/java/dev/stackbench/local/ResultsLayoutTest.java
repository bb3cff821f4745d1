package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsLayoutTest {

    @TempDir
    Path repo;

    @Test
    void invocationsStartingInTheSameSecondGetDirectoriesOfTheirOwn() throws Exception {
        ZonedDateTime now = ZonedDateTime.of(2026, 11, 27, 8, 30, 15, 0, ZoneOffset.UTC);

        ResultsLayout first = ResultsLayout.createUnderDefaultDirectory(repo, now);
        ResultsLayout second = ResultsLayout.createUnderDefaultDirectory(repo, now);
        ResultsLayout third = ResultsLayout.createUnderDefaultDirectory(repo, now);

        assertThat(first.root())
                .isEqualTo(repo.resolve("results/20261127-083015"))
                .isDirectory();
        assertThat(second.root())
                .isEqualTo(repo.resolve("results/20261127-083015-2"))
                .isDirectory();
        assertThat(third.root())
                .isEqualTo(repo.resolve("results/20261127-083015-3"))
                .isDirectory();
    }
}
