package dev.stackbench.results;

import java.util.Locale;
import java.util.Optional;

/**
 * The share of a machine's CPU time its hypervisor gave to someone else while a window was measured: the steal column
 * of /proc/stat. On a virtual machine the processes of a run then got less CPU than their limits or CPU sets say,
 * so the figures measure the host's other guests as much as the stack: a comparison leaves such a run out, as it does
 * one whose load generator fell behind.
 */
public final class HostSteal {

    /** The most of the machine's CPU time the host may take in a measured window before the figures are doubted. */
    public static final double LIMIT = 0.05;

    private HostSteal() {}

    /** Whether a window with this share stolen (null: not measured) is doubted. */
    public static boolean doubts(Double share) {
        return share != null && share > LIMIT;
    }

    /** The share as the status gives it: four decimals, a hundredth of a percent. */
    public static double rounded(double share) {
        return Math.round(share * 10_000) / 10_000.0;
    }

    /** What the share says about the run, as a comparison's reason to leave it out. */
    public static String reason(double share) {
        return String.format(
                Locale.ROOT,
                "the machine's host took %.1f %% of its CPU time during the measured window (steal in /proc/stat),"
                        + " so the stack had less CPU than the spec gave it",
                share * 100);
    }

    /** The run's warning when the host took more than {@link #LIMIT} of the machine's CPU time in its window. */
    public static Optional<String> warning(Double share) {
        if (!doubts(share)) {
            return Optional.empty();
        }
        return Optional.of(reason(share) + ": its figures are lower than this machine gives with a quiet host;"
                + " run it again, and compare runs only when none of them was stolen from");
    }
}
