package dev.stackbench.model;

import dev.stackbench.api.run.ResourcesSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One Spring Boot app of a run (the target or the delay service) as both runners start it: the same environment, the
 * same JVM options and sizing, the same ports and health endpoint. The operator turns it into a Deployment, local
 * mode into a process; what differs between the two is only where the app listens and how the database credentials
 * reach it (a Secret on a cluster, plain variables locally), both decided by {@link AppWiring}.
 *
 * @param role the app's role in the run (target, delay-service)
 * @param resources its CPU and memory limits
 * @param endpoint where it listens
 * @param environment the contract's variables followed by the user's own (which win on a clash), without the
 *     database credentials
 * @param sizingOptions the JVM options that make the JVM see its limits ({@link JvmSizing})
 * @param userJvmOptions spec.target.jvmOptions as written, or null
 */
public record SpringApp(
        String role,
        ResourcesSpec resources,
        AppWiring.Endpoint endpoint,
        Map<String, String> environment,
        List<String> sizingOptions,
        String userJvmOptions) {

    /** Readiness: Actuator health on the management port. */
    public static final String HEALTH_PATH = "/actuator/health";
    /**
     * The kubelet's readiness probe: Actuator's readiness group, the application's readiness state alone (accepting
     * traffic once started), with {@link #PROBES_ENABLED_ENV} set. {@link #HEALTH_PATH} also checks the database,
     * borrowing a connection from the pool the requests use: fine once before the load, not every probe during it.
     */
    public static final String READINESS_PATH = "/actuator/health/readiness";
    /** Spring Boot's switch for the health groups {@code liveness} and {@code readiness}, as a variable. */
    public static final String PROBES_ENABLED_ENV = "MANAGEMENT_ENDPOINT_HEALTH_PROBES_ENABLED";
    /** Build facts (Java and Spring Boot versions) on the management port. */
    public static final String INFO_PATH = "/actuator/info";
    /** Metrics on the management port. */
    public static final String PROMETHEUS_PATH = "/actuator/prometheus";

    /** Variables the user cannot override: the database credentials come from the runner's credential source. */
    public static final String DB_USER_ENV = "DB_USER";

    public static final String DB_PASSWORD_ENV = "DB_PASSWORD";

    public SpringApp {
        environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        sizingOptions = List.copyOf(sizingOptions);
    }

    /** Every JVM option in order, as words for a command line: the sizing first, then the user's. */
    public List<String> jvmOptions() {
        List<String> options = new ArrayList<>(sizingOptions);
        options.addAll(JvmSizing.split(userJvmOptions));
        return options;
    }

    /** The same options as one JAVA_TOOL_OPTIONS value (the user's part exactly as written). */
    public String javaToolOptions() {
        return JvmSizing.javaToolOptions(sizingOptions, userJvmOptions);
    }

    /** Processors the JVM is told it has; pools that scale with CPUs are sized from it. */
    public int activeProcessors() {
        return JvmSizing.activeProcessors(resources.getCpu());
    }
}
