package dev.stackbench.local;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What made a run's results, written as provenance.json into its directory: the stackbench build, the k6 that sent the
 * load, the machine and the JDK, and the digest of the target's jar. Two runs compared later are fair only when these
 * agree; {@code stackbench compare} reads them to say where they do not.
 *
 * @param stackbenchCommit the git commit the CLI was built from
 * @param cpus CPUs this process could use on the machine
 * @param jdk the JDK that ran the CLI and the target
 * @param targetJar the target's jar, relative to the repository root
 * @param targetJarSha256 its SHA-256, the local counterpart of an image digest; null when it could not be read
 */
public record Provenance(
        String stackbenchVersion,
        String stackbenchCommit,
        boolean stackbenchDirty,
        String k6Version,
        String host,
        String cpuModel,
        int cpus,
        String kernel,
        String jdk,
        String targetJar,
        String targetJarSha256) {

    /** This machine's and this build's, for a run of the given target jar with the given k6. */
    static Provenance of(BuildInfo build, String k6Version, int cpus, Path repoRoot, String targetJar) {
        return new Provenance(
                build.version(),
                build.commit(),
                build.dirty(),
                k6Version,
                MachineFacts.hostName(),
                MachineFacts.cpuModel(),
                cpus,
                MachineFacts.kernel(),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"),
                targetJar,
                targetJar == null ? null : sha256(repoRoot.resolve(targetJar)));
    }

    private static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int read = in.read(buffer); read > 0; read = in.read(buffer)) {
                digest.update(buffer, 0, read);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException | NoSuchAlgorithmException e) {
            return null;
        }
    }
}
