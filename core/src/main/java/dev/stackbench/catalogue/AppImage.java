package dev.stackbench.catalogue;

import java.nio.file.Path;

/**
 * One deployable app of the catalogue: its container image (cluster mode) and its executable jar (local mode).
 *
 * @param image image repository without tag, e.g. stackbench/mvc-app
 * @param jar jar path relative to the repository root, e.g. targets/mvc-app/target/mvc-app.jar
 */
public record AppImage(String image, String jar) {

    /** The jar resolved against the repository root. */
    public Path jarPath(Path repositoryRoot) {
        return repositoryRoot.resolve(jar);
    }
}
