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
 * How test JVMs running side by side (failsafe forks) share this machine, through operating-system locks on files in
 * the operator module's build directory. A lock goes with its process, also when a JVM is killed.
 *
 * <ul>
 *   <li>{@link #take The turn}: one test class at a time may have the real-node cluster (fixed bridge and addresses;
 *       its classes compare the host's state before and after it) or a local run whose figures and generator check
 *       read the CPUs the real nodes share.
 *   <li>{@link #quiet Quiet}: a test that measures and judges the figures (the demo comparison's Little's-law cap)
 *       waits until no other JVM runs a test class that works the machine, and keeps them from starting until it is
 *       done.
 *   <li>{@link #busy Busy}: what those classes hold while they run (the kwok-cluster classes, through {@link
 *       TestClusterExtension}). A JVM that waits for the turn or for quiet is not busy meanwhile: it gives up its
 *       own busy hold first, or two JVMs would wait for each other.
 * </ul>
 */
public final class MachineTurn implements AutoCloseable {

    private static final String TURN = "machine-turn.lock";
    private static final String QUIET = "machine-quiet.lock";
    /** Held (exclusively) by a JVM that waits for or has quiet, so that no new busy hold overtakes it. */
    private static final String QUIET_WANTED = "machine-quiet-wanted.lock";

    /** This JVM's busy hold: its lock, and how many test classes share it (nested classes each take one). */
    private static FileHold busyHold;

    private static int busyHolders;
    /** Turns and quiet holds this JVM has or waits for: it is not busy while there is one. */
    private static int suspensions;

    private final FileHold[] holds;

    private MachineTurn(FileHold... holds) {
        this.holds = holds;
    }

    /** Waits until no other test JVM holds the turn, then holds it until {@link #close()}. */
    public static synchronized MachineTurn take(String holder) {
        suspendBusy();
        try {
            return new MachineTurn(FileHold.lock(
                    TURN,
                    false,
                    holder,
                    "another test JVM has the machine to itself (the real-node cluster or a local run)"));
        } catch (RuntimeException e) {
            resumeBusy();
            throw e;
        }
    }

    /**
     * Waits until no other test JVM runs a busy test class, then keeps new ones from starting until {@link #close()}.
     */
    public static synchronized MachineTurn quiet(String holder) {
        suspendBusy();
        FileHold wanted = null;
        try {
            wanted = FileHold.lock(QUIET_WANTED, false, holder, "another test wants the machine quiet");
            return new MachineTurn(
                    FileHold.lock(QUIET, false, holder, "test classes that work the machine run in another JVM"),
                    wanted);
        } catch (RuntimeException e) {
            if (wanted != null) {
                wanted.release();
            }
            resumeBusy();
            throw e;
        }
    }

    /** Marks this JVM busy until {@link #idle()}; waits while another JVM has or wants the machine quiet. */
    public static synchronized void busy(String holder) {
        if (busyHolders++ > 0 || suspensions > 0) {
            return;
        }
        try {
            busyHold = shareAfterQuiet(holder);
        } catch (RuntimeException e) {
            busyHolders--;
            throw e;
        }
    }

    /** Ends one {@link #busy} hold; the JVM's lock goes with the last one. */
    public static synchronized void idle() {
        if (busyHolders == 0 || --busyHolders > 0) {
            return;
        }
        if (busyHold != null) {
            busyHold.release();
            busyHold = null;
        }
    }

    @Override
    public void close() {
        synchronized (MachineTurn.class) {
            for (FileHold hold : holds) {
                hold.release();
            }
            resumeBusy();
        }
    }

    private static FileHold shareAfterQuiet(String holder) {
        FileHold wanted = FileHold.lock(QUIET_WANTED, true, holder, "another test wants the machine quiet");
        try {
            return FileHold.lock(QUIET, true, holder, "another test has the machine quiet");
        } finally {
            wanted.release();
        }
    }

    private static void suspendBusy() {
        if (busyHold != null) {
            busyHold.release();
            busyHold = null;
        }
        suspensions++;
    }

    private static void resumeBusy() {
        if (--suspensions == 0 && busyHolders > 0 && busyHold == null) {
            busyHold = shareAfterQuiet("a test class of this JVM");
        }
    }

    /** One lock on one file, with the channel it needs. */
    private record FileHold(FileChannel channel, FileLock lock) {

        static FileHold lock(String name, boolean shared, String holder, String whyWaiting) {
            Path file = ProjectTools.repositoryRoot().resolve("operator/target").resolve(name);
            FileChannel channel = null;
            try {
                Files.createDirectories(file.getParent());
                channel = FileChannel.open(
                        file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock lock = channel.tryLock(0, Long.MAX_VALUE, shared);
                if (lock == null) {
                    Instant began = Instant.now();
                    System.err.println(holder + ": " + whyWaiting + "; waiting");
                    lock = channel.lock(0, Long.MAX_VALUE, shared);
                    System.err.println(holder + ": went on after "
                            + Duration.between(began, Instant.now()).toSeconds() + " s (" + name + ")");
                }
                return new FileHold(channel, lock);
            } catch (IOException e) {
                closeQuietly(channel);
                throw new UncheckedIOException("cannot lock " + file + " for the test's share of the machine", e);
            } catch (RuntimeException e) {
                closeQuietly(channel);
                throw e;
            }
        }

        void release() {
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
}
