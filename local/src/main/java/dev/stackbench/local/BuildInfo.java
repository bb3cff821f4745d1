package dev.stackbench.local;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The stackbench build this code is part of: its version and the git commit it was built from, baked into the jar by
 * Maven (build.properties), so a results directory and {@code stackbench --version} say exactly what made them.
 *
 * @param commit the full commit id, "unknown" when built outside a git checkout
 * @param dirty whether the checkout had changes that no commit holds
 */
public record BuildInfo(String version, String commit, boolean dirty) {

    private static final String RESOURCE = "/dev/stackbench/build.properties";

    /** This build's, or "development build" and "unknown" when run from classes Maven did not filter. */
    public static BuildInfo current() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            // Unreadable resources leave the defaults: the version is then said to be unknown, not made up.
        }
        return new BuildInfo(
                known(properties.getProperty("version"), "development build"),
                known(properties.getProperty("commit"), "unknown"),
                "true".equals(properties.getProperty("dirty")));
    }

    /** One line: "0.1.0-SNAPSHOT (commit 0123abc..., with uncommitted changes)". */
    public String describe() {
        return version + " (commit " + commit + (dirty ? ", with uncommitted changes" : "") + ")";
    }

    /** A value Maven did not fill in (still "${...}") or left empty is not known. */
    private static String known(String value, String otherwise) {
        return value == null || value.isBlank() || value.startsWith("${") ? otherwise : value;
    }
}
