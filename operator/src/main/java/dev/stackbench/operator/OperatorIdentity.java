package dev.stackbench.operator;

/**
 * The operator's own version and image, for the environment manifest of every run: the chart passes them in
 * STACKBENCH_OPERATOR_VERSION and STACKBENCH_OPERATOR_IMAGE; without them, the version in the jar's manifest.
 */
public record OperatorIdentity(String version, String image) {

    /** The identity of this operator process, for a run's manifest. */
    public static OperatorIdentity current() {
        String version = System.getenv("STACKBENCH_OPERATOR_VERSION");
        if (version == null || version.isBlank()) {
            version = OperatorIdentity.class.getPackage().getImplementationVersion();
        }
        String image = System.getenv("STACKBENCH_OPERATOR_IMAGE");
        return new OperatorIdentity(version, image == null || image.isBlank() ? null : image);
    }
}
