package dev.stackbench.operator.objects;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.List;
import java.util.Map;

/**
 * The security settings of every pod a run creates (target, delay service, and through the TestRun k6-operator's
 * initializer, runners and starter), so that they meet the Pod Security "restricted" profile and run in namespaces
 * that enforce it: no root, no privilege escalation, no capabilities, the runtime's default seccomp profile. The
 * images run as a non-root user of their own (65532 in stackbench's); an image that runs as root is refused by the
 * kubelet, and the run names the container's CreateContainerConfigError.
 *
 * <p>The operator's own pods (target, delay service, database) also get a read-only root filesystem: what they write
 * goes to emptyDirs of a fixed size ({@link #scratch}), so a process that writes more than it should is evicted
 * instead of filling the node's disk, and nothing can change the image's files.
 */
final class RestrictedPods {

    private RestrictedPods() {}

    static PodSecurityContext pod() {
        return new PodSecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .build();
    }

    static SecurityContext container() {
        return new SecurityContextBuilder()
                .withReadOnlyRootFilesystem(true)
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities()
                .withDrop("ALL")
                .endCapabilities()
                .build();
    }

    /** The JVM's and the apps' temporary files (Tomcat's work directory, the JVM's perf data): {@value}. */
    static final String TMP = "/tmp";

    /**
     * An emptyDir of at most {@code sizeLimit} (in memory when {@code inMemory}: it then counts against the
     * container's memory limit).
     */
    static Volume scratch(String name, String sizeLimit, boolean inMemory) {
        return new VolumeBuilder()
                .withName(name)
                .withNewEmptyDir()
                .withMedium(inMemory ? "Memory" : null)
                .withSizeLimit(new Quantity(sizeLimit))
                .endEmptyDir()
                .build();
    }

    static VolumeMount mount(String name, String path) {
        return new VolumeMountBuilder().withName(name).withMountPath(path).build();
    }

    /** {@link #pod()} as the plain map a TestRun's pod sections ({@code securityContext}) hold. */
    static Map<String, Object> podAsMap() {
        return Map.of("runAsNonRoot", true, "seccompProfile", Map.of("type", "RuntimeDefault"));
    }

    /** {@link #container()} as the plain map a TestRun's pod sections ({@code containerSecurityContext}) hold. */
    static Map<String, Object> containerAsMap() {
        return Map.of("allowPrivilegeEscalation", false, "capabilities", Map.of("drop", List.of("ALL")));
    }
}
