package dev.stackbench.operator;

import dev.stackbench.api.status.NodeFacts;
import dev.stackbench.api.status.RunEnvironment;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSystemInfo;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a run's manifest records about its pods, from their status and their nodes: the image digest each role ran
 * (the kubelet's {@code imageID}, which a moved tag cannot change), each role's QoS class, and for every node the
 * kernel, OS image, container runtime, kubelet version and CPUs. Two runs compare fairly when these agree.
 */
public final class RunManifest {

    private RunManifest() {}

    /**
     * Records the pods' digests and QoS classes and their nodes' facts in the environment.
     *
     * @param podsByRole the run's pods per role, in the order the manifest lists them
     * @param nodes reads a node by name; empty when it cannot be read (it is left out)
     */
    public static void describePods(
            RunEnvironment environment, Map<String, List<Pod>> podsByRole, Function<String, Optional<Node>> nodes) {
        Map<String, String> digests = new LinkedHashMap<>();
        Map<String, String> qos = new LinkedHashMap<>();
        Map<String, List<String>> rolesByNode = new LinkedHashMap<>();
        podsByRole.forEach((role, pods) -> {
            for (Pod pod : pods) {
                if (pod.getStatus() != null) {
                    if (pod.getStatus().getQosClass() != null) {
                        qos.putIfAbsent(role, pod.getStatus().getQosClass());
                    }
                    for (ContainerStatus container : Optional.ofNullable(
                                    pod.getStatus().getContainerStatuses())
                            .orElse(List.of())) {
                        if (container.getImageID() != null
                                && !container.getImageID().isBlank()) {
                            digests.putIfAbsent(role, container.getImageID());
                        }
                    }
                }
                String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
                if (node != null) {
                    List<String> roles = rolesByNode.computeIfAbsent(node, n -> new ArrayList<>());
                    if (!roles.contains(role)) {
                        roles.add(role);
                    }
                }
            }
        });
        List<NodeFacts> facts = new ArrayList<>();
        rolesByNode.forEach((name, roles) -> nodes.apply(name).ifPresent(node -> facts.add(facts(node, roles))));
        environment.setImageDigests(digests.isEmpty() ? null : digests);
        environment.setQosClasses(qos.isEmpty() ? null : qos);
        environment.setNodes(facts.isEmpty() ? null : facts);
    }

    private static NodeFacts facts(Node node, List<String> roles) {
        NodeFacts facts = new NodeFacts().withName(node.getMetadata().getName()).withRoles(List.copyOf(roles));
        if (node.getStatus() == null) {
            return facts;
        }
        NodeSystemInfo info = node.getStatus().getNodeInfo();
        if (info != null) {
            facts.withKernelVersion(info.getKernelVersion())
                    .withOsImage(info.getOsImage())
                    .withContainerRuntime(info.getContainerRuntimeVersion())
                    .withKubeletVersion(info.getKubeletVersion())
                    .withArchitecture(info.getArchitecture());
        }
        facts.withCpuCapacity(cpu(node.getStatus().getCapacity()))
                .withCpuAllocatable(cpu(node.getStatus().getAllocatable()));
        return facts;
    }

    private static String cpu(Map<String, Quantity> resources) {
        return resources == null || resources.get("cpu") == null
                ? null
                : resources.get("cpu").toString();
    }
}
