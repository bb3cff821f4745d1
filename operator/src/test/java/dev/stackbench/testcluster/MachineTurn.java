package dev.stackbench.testcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;

/**
 * One test class at a time may have this machine to itself: the one real-node cluster (fixed bridge and addresses),
 * whose classes compare the host's state before and after it, and a local run whose figures and generator check read
 * the CPUs it shares (the real nodes take both). Test JVMs run side by side (failsafe forks), so the turn is an
 * operating-system lock on a file in the operator module's build directory, held for as long as the test needs the
 * machine. The lock goes with the process, also when a JVM is killed.
 */
public final class MachineTurn implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private MachineTurn(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits until no other test JVM holds the turn, then holds it until {@link #close()}. */
    public static MachineTurn take(String holder) {
        Path file = ProjectTools.repositoryRoot().resolve("operator/target/machine-turn.lock");
        FileChannel channel = null;
        try {
            Files.createDirectories(file.getParent());
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                Instant began = Instant.now();
                System.err.println(
                        holder
                                + ": another test JVM has the machine to itself (the real-node cluster or a local run); waiting");
                lock = channel.lock();
                System.err.println(holder + ": took the machine's turn after "
                        + Duration.between(began, Instant.now()).toSeconds() + " s");
            }
            return new MachineTurn(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot take the machine's test lock " + file, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // Closing the channel below releases it too.
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing left to release.
        }
    }
}
