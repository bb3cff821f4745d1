package dev.stackbench.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One local run at a time on a machine. A run pins processes to this machine's CPUs and measures them: a second run
 * beside it would take CPU from both and skew both results. The lock is an OS file lock (fcntl) on one file for the
 * whole machine, held by the running CLI and released by the kernel when that process ends, however it ends (a
 * SIGKILLed CLI leaves no stale lock). The file says who holds it, for the refusal's message.
 */
public final class RunLock implements AutoCloseable {

    /** Environment variable naming the lock file; runs with different lock files do not see each other. */
    public static final String PATH_ENV = "STACKBENCH_RUN_LOCK";

    /** Another CLI holds the lock. */
    public static final class Busy extends Exception {
        Busy(String message) {
            super(message);
        }
    }

    private final FileChannel channel;
    private final FileLock lock;
    private final Instant since = Instant.now();

    private RunLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The machine's lock file: {@code $STACKBENCH_RUN_LOCK}, else {@code stackbench-local-run.lock} in the temp dir. */
    public static Path path() {
        String fromEnv = System.getenv(PATH_ENV);
        return fromEnv != null && !fromEnv.isBlank()
                ? Path.of(fromEnv)
                : Path.of(System.getProperty("java.io.tmpdir"), "stackbench-local-run.lock");
    }

    /**
     * Takes the lock without waiting.
     *
     * @throws Busy when another run holds it, naming that run's pid and results directory and what to do
     * @throws IOException when the lock file cannot be opened, with what to change
     */
    public static RunLock acquire(Path file) throws Busy, IOException {
        FileChannel channel;
        try {
            channel = open(file);
        } catch (IOException e) {
            throw new IOException(
                    "could not open the lock file " + file + " that keeps two local runs from sharing this machine ("
                            + e + "): make it writable for this user, or set " + PATH_ENV + " to a file this user"
                            + " can write",
                    e);
        }
        allowEveryUser(file);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException heldByThisJvm) {
            lock = null;
        } catch (IOException e) {
            channel.close();
            throw new IOException("could not lock " + file + ": " + e.getMessage(), e);
        }
        if (lock == null) {
            channel.close();
            throw new Busy(busyMessage(file));
        }
        RunLock runLock = new RunLock(channel, lock);
        runLock.describe(null);
        return runLock;
    }

    /**
     * Opens the lock file, creating it if needed. An existing file is opened without O_CREAT: in a sticky directory
     * like /tmp, Linux's fs.protected_regular refuses O_CREAT on a file another user made, even one everyone may
     * write.
     */
    private static FileChannel open(Path file) throws IOException {
        if (!Files.exists(file)) {
            try {
                return FileChannel.open(
                        file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException madeMeanwhile) {
                // Another CLI made it first: open it as it is.
            }
        }
        return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** Records who holds the lock and where its results go, for a run refused meanwhile. */
    public void describe(Path resultsDir) throws IOException {
        String text = "pid=" + ProcessHandle.current().pid() + "\nsince=" + since + "\nresults="
                + (resultsDir == null ? "" : resultsDir.toAbsolutePath()) + "\n";
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), 0);
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }

    private static String busyMessage(Path file) {
        Map<String, String> holder = readHolder(file);
        String pid = holder.getOrDefault("pid", "?");
        String results = holder.getOrDefault("results", "");
        return "another local run is under way on this machine (pid " + pid + ", started "
                + holder.getOrDefault("since", "?") + ", results in "
                + (results.isEmpty() ? "a directory it has not chosen yet" : results) + "): two runs at once would"
                + " share CPUs and disturb each other's figures, so nothing was started. Wait for it to end (or stop"
                + " it: kill " + pid + "), then run again. `stackbench script` works meanwhile; the lock is " + file
                + " (" + PATH_ENV + " chooses another, for a run that must not see this one)";
    }

    private static Map<String, String> readHolder(Path file) {
        try {
            return Files.readAllLines(file).stream()
                    .filter(line -> line.contains("="))
                    .collect(Collectors.toMap(
                            line -> line.substring(0, line.indexOf('=')),
                            line -> line.substring(line.indexOf('=') + 1),
                            (first, second) -> second));
        } catch (IOException e) {
            return Map.of();
        }
    }

    /** Lets other users take the lock too: a run of theirs on this machine must be refused, not fail. */
    private static void allowEveryUser(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        } catch (IOException | UnsupportedOperationException notOurs) {
            // Made by another user, who allowed everyone when making it.
        }
    }
}
