package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JvmStartCacheTest {

    @TempDir
    Path dir;

    private final Path thisJava = Path.of(System.getProperty("java.home"), "bin", "java");

    @Test
    void aJarThatCannotBeUnpackedStartsAsItIsWithNoTraining() throws IOException {
        Path jar = plainJar("plain.jar");

        JvmStartCache.Start start = new JvmStartCache(thisJava, dir.resolve("cache")).prepare(jar, "-Xmx64m");

        assertThat(start.command()).containsExactly(thisJava.toString(), "-jar", jar.toString());
        assertThat(start.training()).isNull();
        assertThat(start.cache()).isNull();
    }

    @Test
    void anotherJvmGetsNoArchiveItsOwnVersionCouldNotRead() throws IOException {
        Path jar = plainJar("app.jar");
        Path otherJava = dir.resolve("other-jdk/bin/java");

        JvmStartCache.Start start = new JvmStartCache(otherJava, dir.resolve("cache")).prepare(jar, null);

        assertThat(start.command()).containsExactly(otherJava.toString(), "-jar", jar.toString());
        assertThat(start.training()).isNull();
        assertThat(dir.resolve("cache")).doesNotExist();
    }

    @Test
    void optionsThatChooseAClassArchiveGetNoCacheTheJvmWouldRefuseBesideThem() throws IOException {
        Path jar = plainJar("app.jar");

        for (String options : java.util.List.of("-Xshare:off", "-Xmx64m -XX:SharedArchiveFile=/tmp/a.jsa")) {
            JvmStartCache.Start start = new JvmStartCache(thisJava, dir.resolve("cache")).prepare(jar, options);

            assertThat(start.command()).as(options).containsExactly(thisJava.toString(), "-jar", jar.toString());
            assertThat(start.training()).as(options).isNull();
        }
        assertThat(dir.resolve("cache")).doesNotExist();
    }

    @Test
    void discardingRemovesAHalfWrittenCacheAndToleratesNone() throws IOException {
        Path cache = Files.writeString(dir.resolve("app-1.aot"), "partial");

        JvmStartCache.discard(new JvmStartCache.Start(java.util.List.of("java"), java.util.List.of("java"), cache));
        JvmStartCache.discard(new JvmStartCache.Start(java.util.List.of("java"), null, null));

        assertThat(cache).doesNotExist();
    }

    /** A jar with a manifest and no Spring Boot tools: {@code -Djarmode=tools ... extract} fails on it. */
    private Path plainJar(String name) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "example.Main");
        Path jar = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
            jarOut.flush();
        }
        return jar;
    }
}
