package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Map;

/**
 * What a run ran on, so results can be compared and reproduced.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public RunEnvironment withMode(String mode) {
        this.mode = mode;
        return this;
    }

    public String getVariant() {
        return variant;
    }

    public void setVariant(String variant) {
        this.variant = variant;
    }

    public RunEnvironment withVariant(String variant) {
        this.variant = variant;
        return this;
    }

    public List<String> getNodeNames() {
        return nodeNames;
    }

    public void setNodeNames(List<String> nodeNames) {
        this.nodeNames = nodeNames;
    }

    public RunEnvironment withNodeNames(List<String> nodeNames) {
        this.nodeNames = nodeNames;
        return this;
    }

    public String getCpuLimit() {
        return cpuLimit;
    }

    public void setCpuLimit(String cpuLimit) {
        this.cpuLimit = cpuLimit;
    }

    public RunEnvironment withCpuLimit(String cpuLimit) {
        this.cpuLimit = cpuLimit;
        return this;
    }

    public String getMemoryLimit() {
        return memoryLimit;
    }

    public void setMemoryLimit(String memoryLimit) {
        this.memoryLimit = memoryLimit;
    }

    public RunEnvironment withMemoryLimit(String memoryLimit) {
        this.memoryLimit = memoryLimit;
        return this;
    }

    public String getCpuSet() {
        return cpuSet;
    }

    public void setCpuSet(String cpuSet) {
        this.cpuSet = cpuSet;
    }

    public RunEnvironment withCpuSet(String cpuSet) {
        this.cpuSet = cpuSet;
        return this;
    }

    public String getJavaVersion() {
        return javaVersion;
    }

    public void setJavaVersion(String javaVersion) {
        this.javaVersion = javaVersion;
    }

    public RunEnvironment withJavaVersion(String javaVersion) {
        this.javaVersion = javaVersion;
        return this;
    }

    public String getSpringBootVersion() {
        return springBootVersion;
    }

    public void setSpringBootVersion(String springBootVersion) {
        this.springBootVersion = springBootVersion;
    }

    public RunEnvironment withSpringBootVersion(String springBootVersion) {
        this.springBootVersion = springBootVersion;
        return this;
    }

    public Map<String, String> getImages() {
        return images;
    }

    public void setImages(Map<String, String> images) {
        this.images = images;
    }

    public RunEnvironment withImages(Map<String, String> images) {
        this.images = images;
        return this;
    }

    public String getJvmOptions() {
        return jvmOptions;
    }

    public void setJvmOptions(String jvmOptions) {
        this.jvmOptions = jvmOptions;
    }

    public RunEnvironment withJvmOptions(String jvmOptions) {
        this.jvmOptions = jvmOptions;
        return this;
    }

    public Integer getThreadPoolSize() {
        return threadPoolSize;
    }

    public void setThreadPoolSize(Integer threadPoolSize) {
        this.threadPoolSize = threadPoolSize;
    }

    public RunEnvironment withThreadPoolSize(Integer threadPoolSize) {
        this.threadPoolSize = threadPoolSize;
        return this;
    }

    public String getK6Version() {
        return k6Version;
    }

    public void setK6Version(String k6Version) {
        this.k6Version = k6Version;
    }

    public RunEnvironment withK6Version(String k6Version) {
        this.k6Version = k6Version;
        return this;
    }

    public Integer getParallelism() {
        return parallelism;
    }

    public void setParallelism(Integer parallelism) {
        this.parallelism = parallelism;
    }

    public RunEnvironment withParallelism(Integer parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    public Map<String, String> getImageDigests() {
        return imageDigests;
    }

    public void setImageDigests(Map<String, String> imageDigests) {
        this.imageDigests = imageDigests;
    }

    public Map<String, String> getQosClasses() {
        return qosClasses;
    }

    public void setQosClasses(Map<String, String> qosClasses) {
        this.qosClasses = qosClasses;
    }

    public List<NodeFacts> getNodes() {
        return nodes;
    }

    public void setNodes(List<NodeFacts> nodes) {
        this.nodes = nodes;
    }

    public String getOperatorVersion() {
        return operatorVersion;
    }

    public void setOperatorVersion(String operatorVersion) {
        this.operatorVersion = operatorVersion;
    }

    public String getOperatorImage() {
        return operatorImage;
    }

    public void setOperatorImage(String operatorImage) {
        this.operatorImage = operatorImage;
    }

    public String getDatabase() {
        return database;
    }

    public void setDatabase(String database) {
        this.database = database;
    }

    public String getPostgresVersion() {
        return postgresVersion;
    }

    public void setPostgresVersion(String postgresVersion) {
        this.postgresVersion = postgresVersion;
    }
}
