package dev.stackbench.local;

import dev.stackbench.catalogue.Variant;
import dev.stackbench.catalogue.VariantCatalogue;
import java.util.Map;

/**
 * A catalogue variant with the jar that runs it on this machine.
 *
 * @param jar the app's jar, relative to the repository root
 */
record TargetVariant(Variant variant, String jar) {

    static TargetVariant of(VariantCatalogue catalogue, String name) {
        Variant variant = catalogue.variant(name);
        return new TargetVariant(variant, catalogue.app(name).jar());
    }

    String name() {
        return variant.name();
    }

    /** Request pool size for a JVM with this many CPUs and this environment (sizeEnv overrides). */
    int poolThreads(int cpus, Map<String, String> environment) {
        return variant.threadPool().threads(cpus, environment);
    }
}
