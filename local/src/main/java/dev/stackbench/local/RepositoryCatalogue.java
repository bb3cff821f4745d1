package dev.stackbench.local;

import dev.stackbench.catalogue.VariantCatalogue;
import java.nio.file.Files;
import java.nio.file.Path;

/** The variant catalogue local mode runs with. */
public final class RepositoryCatalogue {

    private RepositoryCatalogue() {}

    /** The catalogue of a checkout when there is one (it may be newer than the copy in the jar). */
    public static VariantCatalogue load(Path repoRoot) {
        Path file = repoRoot.resolve("targets/variants.yaml");
        return Files.isRegularFile(file) ? VariantCatalogue.load(file) : VariantCatalogue.load();
    }
}
