package dev.stackbench.operator.objects;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import java.util.List;
import java.util.Map;

/**
 * The security settings of every pod a run creates (target, delay service, and through the TestRun k6-operator's
 * initializer, runners and starter), so that they meet the Pod Security "restricted" profile and run in namespaces
 * that enforce it: no root, no privilege escalation, no capabilities, the runtime's default seccomp profile. The
 * images run as a non-root user of their own (65532 in stackbench's); an image that runs as root is refused by the
 * kubelet, and the run names the container's CreateContainerConfigError.
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
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities()
                .withDrop("ALL")
                .endCapabilities()
                .build();
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
