package dev.stackbench.operator.run;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The environment the operator wires a target with, which a run may not override: the ports and address it listens
 * on, its delay service, its database and the credentials from the database's Secret, the variant's profile and the
 * JVM options it is sized with, the health group its readiness probe asks (RunApps, TargetDeployment,
 * SpringAppDeployment), and the Spring Boot properties those
 * variables feed, in the environment form Spring Boot also reads (SPRING_DATASOURCE_URL overrides the URL built from
 * DB_HOST). Overriding any of them would point the target, and the database password, somewhere else than the run
 * says, or measure another stack than the variant.
 */
public final class TargetWiring {

    /** Set by the operator, by name. */
    static final List<String> NAMES = List.of(
            "SPRING_PROFILES_ACTIVE",
            "PORT",
            "MANAGEMENT_PORT",
            "BIND_ADDRESS",
            "DELAY_SERVICE_URL",
            "DB_HOST",
            "DB_PORT",
            "DB_NAME",
            "DB_USER",
            "DB_PASSWORD",
            "DB_CONNECT_RETRIES",
            "STACKBENCH_RESET_DATABASE",
            "JAVA_TOOL_OPTIONS",
            "JDK_JAVA_OPTIONS",
            "SERVER_PORT",
            "SERVER_ADDRESS",
            "MANAGEMENT_SERVER_PORT",
            "MANAGEMENT_SERVER_ADDRESS",
            "STACKBENCH_UPSTREAM_URL",
            "SPRING_APPLICATION_JSON",
            "MANAGEMENT_ENDPOINT_HEALTH_PROBES_ENABLED");

    /**
     * Whole groups of Spring Boot properties: the database connections, the migration, where configuration comes from,
     * what the kubelet's readiness probe asks.
     */
    static final List<String> PREFIXES = List.of(
            "SPRING_DATASOURCE_",
            "SPRING_R2DBC_",
            "SPRING_FLYWAY_",
            "SPRING_CONFIG_",
            "SPRING_PROFILES_",
            "MANAGEMENT_ENDPOINT_HEALTH_GROUP_READINESS_");

    private TargetWiring() {}

    /**
     * The wiring a variable or system property of this name would override, in its environment form; empty when it
     * overrides none. System properties ({@code spring.datasource.url}) and relaxed spellings are compared as Spring
     * Boot binds them: upper case, dots and dashes as underscores.
     */
    public static Optional<String> overridden(String name) {
        String form = environmentForm(name);
        if (NAMES.contains(form)) {
            return Optional.of(form);
        }
        return PREFIXES.stream().filter(form::startsWith).findFirst().map(prefix -> prefix + "*");
    }

    /** A property or variable name as Spring Boot's environment binding spells it. */
    static String environmentForm(String name) {
        return name.strip()
                .toUpperCase(Locale.ROOT)
                .replace('.', '_')
                .replace('-', '_')
                .replace("[", "")
                .replace("]", "");
    }
}
