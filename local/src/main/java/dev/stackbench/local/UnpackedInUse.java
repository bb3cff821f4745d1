package dev.stackbench.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Which unpacked jars of the start cache ({@link JvmStartCache}) a CLI uses, so that no other CLI deletes one under
 * it. Each CLI holds a shared OS file lock on a file in every copy it started a JVM from, until it exits (the kernel
 * releases it then, however the CLI ends); a copy is deleted only under an exclusive lock, which a shared one
 * refuses. The copy also records the jar it was unpacked from, so that a build of the same jar in another checkout
 * sharing the tools directory is not taken for an older version of it.
 */
final class UnpackedInUse {

    /** The jar an unpacked copy was made from, as an absolute path. */
    static final String SOURCE_FILE = "source-jar.txt";

    private static final String LOCK_FILE = "in-use.lock";
    /** The copies this JVM uses, by directory: held until it exits. */
    private static final Map<Path, FileLock> HELD = new ConcurrentHashMap<>();

    private UnpackedInUse() {}

    /** Marks {@code home} as used by this JVM until it exits. */
    static void hold(Path home) throws IOException {
        Path key = home.toAbsolutePath();
        if (HELD.containsKey(key)) {
            return;
        }
        FileChannel channel = FileChannel.open(
                key.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            // Blocks only while another CLI deletes this very copy; it is unpacked again afterwards.
            HELD.put(key, channel.lock(0, Long.MAX_VALUE, true));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Whether {@code home} was unpacked from {@code jar}, or is from before copies recorded their jar. */
    static boolean madeFrom(Path home, Path jar) {
        Path source = home.resolve(SOURCE_FILE);
        try {
            return !Files.exists(source) || Files.readString(source).strip().equals(jar.toString());
        } catch (IOException unreadable) {
            return false;
        }
    }

    /** Runs {@code delete} on {@code home} under an exclusive lock, unless a CLI (this one included) uses it. */
    static void deleteUnlessInUse(Path home, Consumer<Path> delete) throws IOException {
        Path key = home.toAbsolutePath();
        if (HELD.containsKey(key)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(
                key.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock exclusive;
            try {
                exclusive = channel.tryLock();
            } catch (OverlappingFileLockException heldHere) {
                return;
            }
            if (exclusive == null) {
                return;
            }
            try {
                delete.accept(key);
            } finally {
                if (channel.isOpen()) {
                    exclusive.release();
                }
            }
        }
    }
}
