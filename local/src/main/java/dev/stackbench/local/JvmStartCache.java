package dev.stackbench.local;

import dev.stackbench.model.JvmSizing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How local mode starts a Spring Boot jar quickly without changing what a run measures.
 *
 * <p>A repetition pays for the target's JVM start every time, and on one CPU a Spring Boot start is mostly class
 * loading and linking. The jar is unpacked once into the tools directory (Spring Boot's {@code jarmode=tools extract}
 * layout: the application jar with its libraries beside it, the form the JVM's archives accept; classes inside a
 * nested jar cannot be archived). Then the classes the app loads are archived once and mapped by every later start:
 *
 * <ul>
 *   <li>on JDK 25 and later an AOT cache with the classes loaded and linked, made by a training start of its own
 *       before the first run ({@code -XX:AOTCacheOutput} with {@code spring.context.exit=onRefresh}: the context is
 *       built, nothing is served). No method profiles are recorded ({@code -XX:-AOTRecordTraining}), so every
 *       run's JIT starts from nothing: the cache shortens startup only;
 *   <li>on JDK 19 to 24 a dynamic CDS archive written when the first run's JVM exits
 *       ({@code -XX:+AutoCreateSharedArchive}).
 * </ul>
 *
 * <p>Archives are per unpacked jar, JVM and JVM options (the options decide heap layout and CPU count the archive
 * was made for). Anything that fails here leaves the JVM starting from the jar as it is, never fails a run. An
 * unpacked copy is never removed while a CLI uses it ({@link UnpackedInUse}).
 */
final class JvmStartCache {

    private static final int AOT_CACHE_FEATURE = 25;
    private static final int DYNAMIC_CDS_FEATURE = 19;
    private static final long EXTRACT_TIMEOUT_SECONDS = 120;

    private final Path javaBin;
    private final Path dir;
    private final boolean sameJvm;

    /**
     * @param javaBin the {@code java} that starts the apps
     * @param dir where unpacked jars and archives are kept (under the tools directory, which git ignores)
     */
    JvmStartCache(Path javaBin, Path dir) {
        this.javaBin = javaBin;
        this.dir = dir;
        // The archive must be made and used by one JVM; only this process's JVM has a version known here.
        this.sameJvm = javaBin.toAbsolutePath()
                .startsWith(Path.of(System.getProperty("java.home")).toAbsolutePath());
    }

    /**
     * How to start {@code jar}, given the JVM options the process gets through {@code JAVA_TOOL_OPTIONS}.
     *
     * @param command starts the app
     * @param training if not null, a start that must run to completion first: it refreshes the application
     *     context without serving (Spring's {@code spring.context.exit=onRefresh}) and writes {@code cache} at exit
     * @param cache the archive {@code training} writes, or null
     */
    record Start(List<String> command, List<String> training, Path cache) {}

    Start prepare(Path jar, String toolOptions) {
        int feature = Runtime.version().feature();
        // Options that choose their own class archive (or none) cannot meet a cache given on the command line.
        Path unpacked = sameJvm && feature >= DYNAMIC_CDS_FEATURE && !JvmSizing.choosesClassArchive(toolOptions)
                ? unpacked(jar)
                : null;
        if (unpacked == null) {
            return new Start(List.of(javaBin.toString(), "-jar", jar.toString()), null, null);
        }
        String key = digest(System.getProperty("java.home") + "|" + Runtime.version() + "|"
                + (toolOptions == null ? "" : toolOptions));
        if (feature < AOT_CACHE_FEATURE) {
            // A dynamic archive is written at the end of the first run, by that process, after its measurement.
            return new Start(
                    List.of(
                            javaBin.toString(),
                            "-XX:SharedArchiveFile=" + unpacked.resolveSibling("app-" + key + ".jsa"),
                            "-XX:+AutoCreateSharedArchive",
                            "-jar",
                            unpacked.toString()),
                    null,
                    null);
        }
        Path cache = unpacked.resolveSibling("app-" + key + ".aot");
        List<String> command = List.of(javaBin.toString(), "-XX:AOTCache=" + cache, "-jar", unpacked.toString());
        if (Files.isRegularFile(cache)) {
            return new Start(command, null, null);
        }
        // A run never records: a separate start makes the cache, so every measured JVM runs the same way.
        List<String> training = List.of(
                javaBin.toString(),
                "-XX:AOTCacheOutput=" + cache,
                "-XX:+UnlockDiagnosticVMOptions",
                "-XX:-AOTRecordTraining",
                "-Dspring.context.exit=onRefresh",
                "-jar",
                unpacked.toString());
        return new Start(command, training, cache);
    }

    /** After a training start that failed: no half-written cache may be used. */
    static void discard(Start start) {
        if (start.cache() != null) {
            try {
                Files.deleteIfExists(start.cache());
            } catch (IOException e) {
                // The JVM checks a cache before it maps it, and runs without one it cannot use.
            }
        }
    }

    /** The unpacked application jar, unpacking it first if needed; null if the jar cannot be unpacked. */
    private Path unpacked(Path jar) {
        String name = jar.getFileName().toString();
        try {
            String identity = digest(jar.toAbsolutePath() + "|" + Files.size(jar) + "|"
                    + Files.getLastModifiedTime(jar).toMillis());
            Path home = dir.resolve(name.replaceAll("\\.jar$", "") + "-" + identity);
            Path app = home.resolve("app").resolve(name);
            Files.createDirectories(home);
            UnpackedInUse.hold(home);
            Files.writeString(
                    home.resolve(UnpackedInUse.SOURCE_FILE),
                    jar.toAbsolutePath().toString());
            if (Files.isRegularFile(app)) {
                return app;
            }
            removeOlderVersions(name.replaceAll("\\.jar$", ""), home, jar.toAbsolutePath());
            Path staging = Files.createTempDirectory(home, "unpacking-");
            try {
                Process process = new ProcessBuilder(
                                javaBin.toString(),
                                "-Djarmode=tools",
                                "-jar",
                                jar.toString(),
                                "extract",
                                "--destination",
                                staging.resolve("app").toString())
                        .redirectErrorStream(true)
                        .redirectOutput(home.resolve("unpack.log").toFile())
                        .start();
                if (!process.waitFor(EXTRACT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    return null;
                }
                if (process.exitValue() != 0
                        || !Files.isRegularFile(staging.resolve("app").resolve(name))) {
                    return null;
                }
                try {
                    Files.move(staging.resolve("app"), home.resolve("app"), StandardCopyOption.ATOMIC_MOVE);
                } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
                    // Another start unpacked the same jar first: use that copy.
                }
                return Files.isRegularFile(app) ? app : null;
            } finally {
                deleteTree(staging);
            }
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Unpacked copies of earlier builds of the same jar are never used again. A copy made from a jar at another
     * path (another checkout sharing the tools directory) is left alone, and so is one that a running CLI uses.
     */
    private void removeOlderVersions(String base, Path keep, Path jar) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path other : entries.toList()) {
                String otherName = other.getFileName().toString();
                if (!other.equals(keep)
                        && otherName.startsWith(base + "-")
                        && otherName.substring(base.length() + 1).matches("[0-9a-f]{16}")
                        && UnpackedInUse.madeFrom(other, jar)) {
                    UnpackedInUse.deleteUnlessInUse(other, JvmStartCache::deleteTree);
                }
            }
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // Left for the next start to remove; nothing reads it.
        }
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
