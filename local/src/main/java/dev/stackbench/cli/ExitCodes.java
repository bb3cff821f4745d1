package dev.stackbench.cli;

/** Exit codes of the stackbench command, documented in {@code stackbench run --help}. */
final class ExitCodes {

    static final int OK = 0;
    /** A run could not be carried out (a process failed to start, k6 failed, ...). */
    static final int RUN_FAILED = 1;
    /** A file is not a valid BenchmarkRun, or the command line is wrong; nothing was started. */
    static final int INVALID_INPUT = 2;
    /** Every run completed but at least one threshold failed. */
    static final int THRESHOLDS_FAILED = 3;
    /** Another local run holds this machine's lock ({@link dev.stackbench.local.RunLock}); nothing was started. */
    static final int ANOTHER_RUN = 4;

    private ExitCodes() {}
}
