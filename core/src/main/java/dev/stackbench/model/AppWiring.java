package dev.stackbench.model;

/**
 * Where a run's apps listen and find each other: the only part of the app contract that differs between a cluster
 * (fixed ports on all interfaces, Service names) and local mode (free ports on 127.0.0.1).
 *
 * @param target where the target listens
 * @param delayService where the delay service listens
 * @param delayServiceUrl how the target reaches the delay service
 * @param database how the target reaches PostgreSQL
 */
public record AppWiring(Endpoint target, Endpoint delayService, String delayServiceUrl, Database database) {

    /** Pods listen on every interface of their own network namespace. */
    public static final String ALL_INTERFACES = "0.0.0.0";
    /** Local processes listen on the loopback address only. */
    public static final String LOOPBACK = "127.0.0.1";

    /** The target's ports in a pod. */
    public static final Endpoint CLUSTER_TARGET = new Endpoint(ALL_INTERFACES, 8080, 8081);
    /** The delay service's ports in a pod. */
    public static final Endpoint CLUSTER_DELAY_SERVICE = new Endpoint(ALL_INTERFACES, 8090, 8091);

    /** An app's listening address, its API port and its management (Actuator) port. */
    public record Endpoint(String bindAddress, int httpPort, int managementPort) {}

    /**
     * The PostgreSQL the target uses; the credentials travel separately. {@code shared}: a database other runs use
     * too (an external one), whose orders the target empties at start; a run's own database starts empty anyway.
     */
    public record Database(String host, int port, String name, boolean shared) {}
}
