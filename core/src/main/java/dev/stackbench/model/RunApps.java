package dev.stackbench.model;

import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.api.run.DelayServiceSpec;
import dev.stackbench.api.run.TargetSpec;
import dev.stackbench.api.status.RunEnvironment;
import dev.stackbench.catalogue.VariantCatalogue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Spring Boot apps of a run, built from its spec: one model of the target and the delay service that the
 * operator and local mode both start, so the same spec gives the same apps in both modes (environment, JVM options
 * and sizing, ports, health endpoint) and a difference between the modes can only come from the environment.
 */
public final class RunApps {

    /** Roles of the apps in a run. */
    public static final String TARGET = "target";

    public static final String DELAY_SERVICE = "delay-service";

    /**
     * Asks the target to empty the orders of earlier runs at start (a Flyway afterMigrate callback in the apps), so a
     * run on a shared database begins from the same data as one on its own: the seeded items and no orders.
     */
    public static final String RESET_DATABASE_ENV = "STACKBENCH_RESET_DATABASE";

    private RunApps() {}

    /** The target under test: the variant's profile, the contract's variables, sized to spec.target.resources. */
    public static SpringApp target(BenchmarkRunSpec spec, VariantCatalogue catalogue, AppWiring wiring) {
        TargetSpec target = spec.getTarget();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SPRING_PROFILES_ACTIVE", catalogue.variant(target.getVariant()).profile());
        putEndpoint(env, wiring.target());
        env.put("DELAY_SERVICE_URL", wiring.delayServiceUrl());
        env.put("DB_HOST", wiring.database().host());
        env.put("DB_PORT", Integer.toString(wiring.database().port()));
        env.put("DB_NAME", wiring.database().name());
        env.put(RESET_DATABASE_ENV, Boolean.toString(wiring.database().shared()));
        List<String> sizing = JvmSizing.sizingOptions(target.getResources(), target.getJvmOptions());
        env.put(JvmSizing.ENV, JvmSizing.javaToolOptions(sizing, target.getJvmOptions()));
        if (target.getEnv() != null) {
            target.getEnv().forEach((name, value) -> {
                if (!SpringApp.DB_USER_ENV.equals(name) && !SpringApp.DB_PASSWORD_ENV.equals(name)) {
                    env.put(name, value);
                }
            });
        }
        return new SpringApp(TARGET, target.getResources(), wiring.target(), env, sizing, target.getJvmOptions());
    }

    /** The delay service answering the target's upstream calls, sized to spec.backend.delayService.resources. */
    public static SpringApp delayService(BenchmarkRunSpec spec, AppWiring wiring) {
        DelayServiceSpec delay = spec.getBackend().getDelayService();
        Map<String, String> env = new LinkedHashMap<>();
        putEndpoint(env, wiring.delayService());
        List<String> sizing = JvmSizing.sizingOptions(delay.getResources(), null);
        env.put(JvmSizing.ENV, JvmSizing.javaToolOptions(sizing, null));
        return new SpringApp(DELAY_SERVICE, delay.getResources(), wiring.delayService(), env, sizing, null);
    }

    /**
     * The part of status.environment the app contract decides, the same in both modes: variant, limits, the JVM
     * options the target ran with and the size of its request pool. Each runner adds what its environment knows
     * (nodes, CPUs, images, versions).
     */
    public static RunEnvironment environment(BenchmarkRunSpec spec, SpringApp target, VariantCatalogue catalogue) {
        RunEnvironment environment = new RunEnvironment();
        environment.setVariant(spec.getTarget().getVariant());
        environment.setCpuLimit(target.resources().getCpu());
        environment.setMemoryLimit(target.resources().getMemory());
        environment.setJvmOptions(target.javaToolOptions());
        environment.setThreadPoolSize(
                catalogue.poolThreads(spec.getTarget().getVariant(), target.activeProcessors(), target.environment()));
        return environment;
    }

    /**
     * Where a run ran, as each platform knows it: the part of status.environment that is not the apps' contract. Both
     * modes fill the same fields through {@link #environment(BenchmarkRunSpec, SpringApp, VariantCatalogue, Platform)};
     * null where a platform has no such fact (a cluster has no CPU set, local mode no parallelism beyond 1).
     *
     * @param mode "cluster" or "local"
     * @param nodeNames the nodes (or the host) the target ran on
     * @param images by role: image references on a cluster, jars and server versions locally
     * @param database where the database came from ({@link RunEnvironment#DATABASE_OWN} and the like)
     */
    public record Platform(
            String mode,
            List<String> nodeNames,
            String cpuSet,
            int parallelism,
            Map<String, String> images,
            String database,
            String postgresVersion,
            String k6Version,
            String javaVersion,
            String springBootVersion) {}

    /** The run's environment: the apps as configured ({@code target} null when it never started) and the platform. */
    public static RunEnvironment environment(
            BenchmarkRunSpec spec, SpringApp target, VariantCatalogue catalogue, Platform platform) {
        RunEnvironment environment;
        if (target != null) {
            environment = environment(spec, target, catalogue);
        } else {
            environment = new RunEnvironment();
            environment.setVariant(spec.getTarget().getVariant());
            environment.setCpuLimit(spec.getTarget().getResources().getCpu());
            environment.setMemoryLimit(spec.getTarget().getResources().getMemory());
        }
        environment.setMode(platform.mode());
        environment.setNodeNames(platform.nodeNames());
        environment.setCpuSet(platform.cpuSet());
        environment.setParallelism(platform.parallelism());
        environment.setImages(platform.images());
        environment.setDatabase(platform.database());
        environment.setPostgresVersion(platform.postgresVersion());
        environment.setK6Version(platform.k6Version());
        environment.setJavaVersion(platform.javaVersion());
        environment.setSpringBootVersion(platform.springBootVersion());
        return environment;
    }

    private static void putEndpoint(Map<String, String> env, AppWiring.Endpoint endpoint) {
        env.put("PORT", Integer.toString(endpoint.httpPort()));
        env.put("MANAGEMENT_PORT", Integer.toString(endpoint.managementPort()));
        env.put("BIND_ADDRESS", endpoint.bindAddress());
    }
}
