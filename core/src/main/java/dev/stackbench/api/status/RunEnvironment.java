package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Map;
import lombok.Getter;
import lombok.Setter;

/**
 * What a run ran on, so results can be compared and reproduced.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class RunEnvironment {

    /** {@link #getDatabase()} of a run whose database was deployed for it alone. */
    public static final String DATABASE_OWN = "own";
    /**
     * {@link #getDatabase()} of a local repetition of a comparison: one PostgreSQL kept up across the comparison's
     * repetitions, its schema and data reset by each target at start.
     */
    public static final String DATABASE_COMPARISON = "comparison";

    @JsonPropertyDescription("cluster or local.")
    private String mode;

    private String variant;

    @JsonPropertyDescription("Nodes (or the host) the target ran on.")
    private List<String> nodeNames;

    private String cpuLimit;

    private String memoryLimit;

    @JsonPropertyDescription("CPUs the target was pinned to (local mode).")
    private String cpuSet;

    private String javaVersion;

    private String springBootVersion;

    @JsonPropertyDescription("Image (or jar) per role.")
    private Map<String, String> images;

    private String jvmOptions;

    @JsonPropertyDescription("Size of the variant's request thread pool.")
    private Integer threadPoolSize;

    private String k6Version;

    @JsonPropertyDescription(
            "Image digest per role, as the kubelet resolved it (status.containerStatuses[].imageID): the exact image"
                    + " that ran, where a tag could have moved.")
    private Map<String, String> imageDigests;

    @JsonPropertyDescription("QoS class of each role's pods (Guaranteed when requests equal limits).")
    private Map<String, String> qosClasses;

    @JsonPropertyDescription("The nodes the run's pods ran on (cluster mode).")
    private List<NodeFacts> nodes;

    @JsonPropertyDescription("The operator that ran the run: its version and image (cluster mode).")
    private String operatorVersion;

    private String operatorImage;

    private Integer parallelism;

    @JsonPropertyDescription(
            "The database the target used: \"own\" (deployed for this run alone, fresh and removed with"
                    + " it), \"comparison\" (local mode, a repetition of a comparison: one PostgreSQL for all its"
                    + " repetitions, reset by each target at start) or \"external host:port/database\" (shared"
                    + " between runs).")
    private String database;

    @JsonPropertyDescription("PostgreSQL's server version, as the database reported it.")
    private String postgresVersion;

    public RunEnvironment withMode(String mode) {
        this.mode = mode;
        return this;
    }

    public RunEnvironment withVariant(String variant) {
        this.variant = variant;
        return this;
    }

    public RunEnvironment withNodeNames(List<String> nodeNames) {
        this.nodeNames = nodeNames;
        return this;
    }

    public RunEnvironment withCpuLimit(String cpuLimit) {
        this.cpuLimit = cpuLimit;
        return this;
    }

    public RunEnvironment withMemoryLimit(String memoryLimit) {
        this.memoryLimit = memoryLimit;
        return this;
    }

    public RunEnvironment withCpuSet(String cpuSet) {
        this.cpuSet = cpuSet;
        return this;
    }

    public RunEnvironment withJavaVersion(String javaVersion) {
        this.javaVersion = javaVersion;
        return this;
    }

    public RunEnvironment withSpringBootVersion(String springBootVersion) {
        this.springBootVersion = springBootVersion;
        return this;
    }

    public RunEnvironment withImages(Map<String, String> images) {
        this.images = images;
        return this;
    }

    public RunEnvironment withJvmOptions(String jvmOptions) {
        this.jvmOptions = jvmOptions;
        return this;
    }

    public RunEnvironment withThreadPoolSize(Integer threadPoolSize) {
        this.threadPoolSize = threadPoolSize;
        return this;
    }

    public RunEnvironment withK6Version(String k6Version) {
        this.k6Version = k6Version;
        return this;
    }

    public RunEnvironment withParallelism(Integer parallelism) {
        this.parallelism = parallelism;
        return this;
    }
}
