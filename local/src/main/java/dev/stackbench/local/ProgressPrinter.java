package dev.stackbench.local;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * Live progress on stderr: phase, elapsed/total, current rate and errors. On a terminal the line is
 * redrawn in place every second; otherwise (CI logs, pipes) a full line is printed every few seconds.
 */
public final class ProgressPrinter {

    /** What the progress line shows at one moment. */
    public record Progress(
            String run,
            String phase,
            Duration elapsed,
            Duration total,
            long currentRps,
            long requests,
            long errors,
            long dropped,
            long burstAnswered,
            long burstPlanned) {

        /** Progress of a run that is not a burst. */
        public Progress(
                String run,
                String phase,
                Duration elapsed,
                Duration total,
                long currentRps,
                long requests,
                long errors,
                long dropped) {
            this(run, phase, elapsed, total, currentRps, requests, errors, dropped, 0, 0);
        }
    }

    private static final Duration PLAIN_LINE_INTERVAL = Duration.ofSeconds(5);

    private final PrintStream out;
    private final boolean terminal;
    private long lastPlainLineNanos;
    private int lastLength;

    public ProgressPrinter(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /**
     * A printer for stderr that redraws in place only on a terminal. The launcher knows whether stderr is one
     * ({@code -Dstackbench.stderr.tty}); the JVM alone can only tell whether it has an interactive console.
     */
    public static ProgressPrinter forStderr() {
        String launcherSays = System.getProperty("stackbench.stderr.tty");
        boolean terminal = launcherSays != null ? Boolean.parseBoolean(launcherSays) : hasInteractiveConsole();
        return new ProgressPrinter(System.err, terminal);
    }

    private static boolean hasInteractiveConsole() {
        java.io.Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            // Console.isTerminal() exists from Java 22 on; before that a console is only returned on a terminal.
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException olderJava) {
            return true;
        }
    }

    public synchronized void show(Progress progress) {
        String line = format(progress);
        if (terminal) {
            out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
            out.flush();
            lastLength = line.length();
            return;
        }
        long now = System.nanoTime();
        if (lastPlainLineNanos == 0 || now - lastPlainLineNanos >= PLAIN_LINE_INTERVAL.toNanos()) {
            out.println(line);
            lastPlainLineNanos = now;
        }
    }

    /** Ends the in-place line so the next output starts on a fresh line. */
    public synchronized void finish() {
        if (terminal && lastLength > 0) {
            out.println();
            lastLength = 0;
        }
    }

    /** Prints a message between progress lines without garbling either. */
    public synchronized void message(String text) {
        finish();
        out.println(text);
    }

    static String format(Progress progress) {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "[%s] %-9s %s/%s  %5d req/s  %d requests",
                progress.run(),
                progress.phase(),
                clock(progress.elapsed()),
                clock(progress.total()),
                progress.currentRps(),
                progress.requests()));
        line.append(String.format(Locale.ROOT, "  %d errors", progress.errors()));
        if (progress.burstPlanned() > 0) {
            line.append(String.format(
                    Locale.ROOT, "  burst: %d/%d answered", progress.burstAnswered(), progress.burstPlanned()));
        }
        if (progress.dropped() > 0) {
            line.append(String.format(Locale.ROOT, "  %d dropped (k6 cannot keep the rate)", progress.dropped()));
        }
        return line.toString();
    }

    private static String clock(Duration duration) {
        long seconds = Math.max(0, duration.toSeconds());
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }
}
