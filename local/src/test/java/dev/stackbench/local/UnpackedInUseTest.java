package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnpackedInUseTest {

    @TempDir
    Path dir;

    @Test
    void aCopyInUseIsKeptAndAnUnusedOneIsDeleted() throws Exception {
        Path used = Files.createDirectories(dir.resolve("webflux-app-0123456789abcdef/app"))
                .getParent();
        Path unused = Files.createDirectories(dir.resolve("webflux-app-fedcba9876543210/app"))
                .getParent();
        UnpackedInUse.hold(used);

        UnpackedInUse.deleteUnlessInUse(used, JvmStartCache::deleteTree);
        UnpackedInUse.deleteUnlessInUse(unused, JvmStartCache::deleteTree);

        assertThat(used.resolve("app")).isDirectory();
        assertThat(unused).doesNotExist();
    }

    @Test
    void aCopyOfTheSameJarAtAnotherPathIsNotAnOlderVersion() throws Exception {
        Path home = Files.createDirectories(dir.resolve("webflux-app-0123456789abcdef"));
        Files.writeString(home.resolve(UnpackedInUse.SOURCE_FILE), "/other/checkout/webflux-app.jar");

        assertThat(UnpackedInUse.madeFrom(home, Path.of("/this/checkout/webflux-app.jar")))
                .isFalse();
        assertThat(UnpackedInUse.madeFrom(home, Path.of("/other/checkout/webflux-app.jar")))
                .isTrue();
        assertThat(UnpackedInUse.madeFrom(dir.resolve("from-before"), Path.of("/any.jar")))
                .as("a copy that recorded no jar")
                .isTrue();
    }
}
