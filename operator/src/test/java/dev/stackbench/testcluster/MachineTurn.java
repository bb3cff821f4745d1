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
 * How the two test JVMs of the operator's integration and end-to-end tests share this machine ({@code
 * FakeNodesSuite} and {@code RealNodesSuite} run side by side), through operating-system locks on files in the
 * operator module's build directory. A lock goes with its process, also when a JVM is killed.
 *
 * <ul>
 *   <li>{@link #take The turn}: one test class at a time may have the real-node cluster (fixed bridge and addresses;
 *       its classes compare the host's state before and after it).
 *   <li>{@link #quiet Quiet}: a test that measures and judges the figures (rates against a Little's-law cap, a
 *       generator that kept up, verdicts) waits until no other JVM works the machine, and keeps the other JVM from
 *       starting such work until it is done. Measuring classes and methods on the fake nodes take it for the class
 *       or around the method ({@link MeasuresOnAQuietMachine}); the real-node class takes it before its first
 *       measuring test and keeps it. Nested calls in one JVM share one hold.
 *   <li>{@link #busy Busy}: what every other test class holds while it runs (starting clusters, importing images,
 *       installing charts, runs whose figures are not judged). Busy classes of both JVMs run side by side. A JVM that
 *       waits for the turn or for quiet is not busy meanwhile: it gives up its own busy hold first, or two JVMs would
 *       wait for each other.
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
    /** Turns this JVM waits for and quiet holds it has or waits for: it is not busy while there is one. */
    private static int suspensions;

    /** This JVM's quiet hold, shared by nested {@link #quiet} calls, and how many hold it. */
    private static MachineTurn quietHold;

    private static int quietHolders;

    private final FileHold[] holds;
    /** A share of this JVM's quiet hold, released with the last share. */
    private final boolean quietShare;

    private boolean closed;

    private MachineTurn(FileHold... holds) {
        this(false, holds);
    }

    private MachineTurn(boolean quietShare, FileHold... holds) {
        this.quietShare = quietShare;
        this.holds = holds;
    }

    /**
     * Waits until no other test JVM holds the turn, then holds it until {@link #close()}. This JVM is not busy while it
     * waits, and busy again (if it was) once it has the turn.
     */
    public static synchronized MachineTurn take(String holder) {
        suspendBusy();
        try {
            return new MachineTurn(FileHold.lock(TURN, false, holder, "another test JVM has the real-node cluster"));
        } finally {
            resumeBusy();
        }
    }

    /**
     * Waits until no other test JVM runs a busy test class, then keeps new ones from starting until {@link #close()}.
     */
    public static synchronized MachineTurn quiet(String holder) {
        if (quietHolders > 0) {
            quietHolders++;
            return new MachineTurn(true);
        }
        suspendBusy();
        FileHold wanted = null;
        try {
            wanted = FileHold.lock(QUIET_WANTED, false, holder, "another test wants the machine quiet");
            quietHold = new MachineTurn(
                    FileHold.lock(QUIET, false, holder, "test classes that work the machine run in another JVM"),
                    wanted);
            quietHolders = 1;
            return new MachineTurn(true);
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
            if (closed) {
                return;
            }
            closed = true;
            if (quietShare) {
                if (--quietHolders == 0) {
                    for (FileHold hold : quietHold.holds) {
                        hold.release();
                    }
                    quietHold = null;
                    resumeBusy();
                }
                return;
            }
            for (FileHold hold : holds) {
                hold.release();
            }
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
    private record FileHold(FileChannel channel, FileLock lock, String name) {

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
                    TestTimeline.note("waits for " + name + " (" + holder + ": " + whyWaiting + ")");
                    lock = channel.lock(0, Long.MAX_VALUE, shared);
                    System.err.println(holder + ": went on after "
                            + Duration.between(began, Instant.now()).toSeconds() + " s (" + name + ")");
                }
                TestTimeline.note("holds " + name + (shared ? " shared" : "") + " (" + holder + ")");
                return new FileHold(channel, lock, name);
            } catch (IOException e) {
                closeQuietly(channel);
                throw new UncheckedIOException("cannot lock " + file + " for the test's share of the machine", e);
            } catch (RuntimeException e) {
                closeQuietly(channel);
                throw e;
            }
        }

        void release() {
            TestTimeline.note("releases " + name);
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
