package dev.stackbench.chart;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The checks of the Pod Security Standards "restricted" profile (and of baseline, which it includes) that a
 * pod spec can fail, plus the project's own rule that every container sets cpu and memory requests and limits.
 * The install test also has the API server enforce the profile on the namespace; this catches the same
 * mistakes for every value combination without a cluster.
 */
final class RestrictedPodSecurity {

    private static final List<String> ALLOWED_VOLUME_TYPES = List.of(
            "configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret");

    private RestrictedPodSecurity() {}

    /** What in this pod spec breaks the profile or leaves a container without requests and limits. */
    static List<String> violations(PodSpec pod) {
        List<String> violations = new ArrayList<>();
        if (Boolean.TRUE.equals(pod.getHostNetwork())
                || Boolean.TRUE.equals(pod.getHostPID())
                || Boolean.TRUE.equals(pod.getHostIPC())) {
            violations.add("pod shares a host namespace");
        }
        for (Volume volume : Optional.ofNullable(pod.getVolumes()).orElse(List.of())) {
            String type = volumeType(volume);
            if (!ALLOWED_VOLUME_TYPES.contains(type)) {
                violations.add("volume " + volume.getName() + " is of type " + type);
            }
        }
        PodSecurityContext podContext =
                Optional.ofNullable(pod.getSecurityContext()).orElse(new PodSecurityContext());
        List<Container> containers = Stream.of(pod.getInitContainers(), pod.getContainers())
                .filter(list -> list != null)
                .flatMap(List::stream)
                .toList();
        for (Container container : containers) {
            String name = "container " + container.getName();
            SecurityContext context =
                    Optional.ofNullable(container.getSecurityContext()).orElse(new SecurityContext());
            if (Boolean.TRUE.equals(context.getPrivileged())) {
                violations.add(name + " is privileged");
            }
            if (!Boolean.FALSE.equals(context.getAllowPrivilegeEscalation())) {
                violations.add(name + " does not set allowPrivilegeEscalation: false");
            }
            boolean runAsNonRoot = context.getRunAsNonRoot() != null
                    ? context.getRunAsNonRoot()
                    : Boolean.TRUE.equals(podContext.getRunAsNonRoot());
            if (!runAsNonRoot) {
                violations.add(name + " may run as root (runAsNonRoot is not true)");
            }
            Long user = context.getRunAsUser() != null ? context.getRunAsUser() : podContext.getRunAsUser();
            if (user != null && user == 0) {
                violations.add(name + " runs as user 0");
            }
            String seccomp = context.getSeccompProfile() != null
                    ? context.getSeccompProfile().getType()
                    : podContext.getSeccompProfile() != null
                            ? podContext.getSeccompProfile().getType()
                            : null;
            if (!"RuntimeDefault".equals(seccomp) && !"Localhost".equals(seccomp)) {
                violations.add(name + " has no RuntimeDefault or Localhost seccomp profile");
            }
            var capabilities = context.getCapabilities();
            if (capabilities == null
                    || capabilities.getDrop() == null
                    || !capabilities.getDrop().contains("ALL")) {
                violations.add(name + " does not drop ALL capabilities");
            }
            if (capabilities != null
                    && capabilities.getAdd() != null
                    && capabilities.getAdd().stream().anyMatch(c -> !"NET_BIND_SERVICE".equals(c))) {
                violations.add(name + " adds capabilities " + capabilities.getAdd());
            }
            if (container.getPorts() != null && container.getPorts().stream().anyMatch(p -> p.getHostPort() != null)) {
                violations.add(name + " uses a host port");
            }
            violations.addAll(resourceViolations(name, container));
        }
        return violations;
    }

    private static List<String> resourceViolations(String name, Container container) {
        List<String> violations = new ArrayList<>();
        var resources = container.getResources();
        Map<String, Quantity> requests = resources == null ? null : resources.getRequests();
        Map<String, Quantity> limits = resources == null ? null : resources.getLimits();
        for (String resource : List.of("cpu", "memory")) {
            if (requests == null || !requests.containsKey(resource)) {
                violations.add(name + " has no " + resource + " request");
            }
            if (limits == null || !limits.containsKey(resource)) {
                violations.add(name + " has no " + resource + " limit");
            }
        }
        return violations;
    }

    private static String volumeType(Volume volume) {
        if (volume.getConfigMap() != null) {
            return "configMap";
        } else if (volume.getCsi() != null) {
            return "csi";
        } else if (volume.getDownwardAPI() != null) {
            return "downwardAPI";
        } else if (volume.getEmptyDir() != null) {
            return "emptyDir";
        } else if (volume.getEphemeral() != null) {
            return "ephemeral";
        } else if (volume.getPersistentVolumeClaim() != null) {
            return "persistentVolumeClaim";
        } else if (volume.getProjected() != null) {
            return "projected";
        } else if (volume.getSecret() != null) {
            return "secret";
        }
        return volume.getHostPath() != null ? "hostPath" : "other";
    }
}
