package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Telling a k6 with the stackbench output from one without, by what {@code k6 version} prints (stand-ins print what
 * k6 v1.8.1 prints with and without extensions; SteadyLoadSeriesIT asks the k6 hack/setup.sh builds).
 */
class K6VersionTest {

    @TempDir
    Path dir;

    @Test
    void aK6ThatListsTheStackbenchOutputHasIt() throws IOException {
        Path k6 = standIn("""
                k6 v1.8.1 (go1.26.8, linux/amd64)
                Extensions:
                  stackbench.local/k6/persecond.New , stackbench [output]
                """);

        assertThat(K6Version.hasStackbenchOutput(k6)).isTrue();
        assertThat(K6Version.of(k6)).isEqualTo("k6 v1.8.1 (go1.26.8, linux/amd64)");
    }

    @Test
    void aPlainK6OrOneWithOtherExtensionsHasNot() throws IOException {
        assertThat(K6Version.hasStackbenchOutput(standIn("k6 v1.8.1 (go1.26.8, linux/amd64)\n")))
                .isFalse();
        assertThat(K6Version.hasStackbenchOutput(standIn("""
                        k6 v1.8.1 (go1.26.8, linux/amd64)
                        Extensions:
                          github.com/example/xk6-stackbench v0.1.0, k6/x/stackbench [js]
                        """))).isFalse();
    }

    @Test
    void aK6ThatDoesNotRunHasNot() {
        assertThat(K6Version.hasStackbenchOutput(dir.resolve("no-such-k6"))).isFalse();
    }

    /** An executable that prints {@code text} whatever it is asked. */
    private Path standIn(String text) throws IOException {
        Path printed = Files.createTempFile(dir, "version", ".txt");
        Files.writeString(printed, text);
        Path script = Files.createTempFile(dir, "k6", ".sh");
        Files.writeString(script, "#!/bin/sh\ncat '" + printed + "'\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }
}
