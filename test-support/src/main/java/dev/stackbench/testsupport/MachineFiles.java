package dev.stackbench.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the test JVMs of every module meet: the repository they run in, and its target/machine directory, which holds
 * the machine's lock files and the test timeline. The root module builds nothing, so no module's build cleans it.
 */
public final class MachineFiles {

    private MachineFiles() {}

    /** The repository root: the nearest directory at or above the working directory holding hack/cluster.sh. */
    public static Path repositoryRoot() {
        Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("hack/cluster.sh"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the stackbench repository (a directory containing "
                + "hack/cluster.sh) at or above " + start + ": run the tests from inside the repository");
    }

    /** A file of the shared directory. */
    static Path file(String name) {
        return repositoryRoot().resolve("target/machine").resolve(name);
    }
}
