package dev.stackbench.model;

import dev.stackbench.api.BenchmarkRunSpec;
import dev.stackbench.api.DelayServiceSpec;
import dev.stackbench.api.RunEnvironment;
import dev.stackbench.api.TargetSpec;
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

    private static void putEndpoint(Map<String, String> env, AppWiring.Endpoint endpoint) {
        env.put("PORT", Integer.toString(endpoint.httpPort()));
        env.put("MANAGEMENT_PORT", Integer.toString(endpoint.managementPort()));
        env.put("BIND_ADDRESS", endpoint.bindAddress());
    }
}
