package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.NodeFacts;
import dev.stackbench.api.status.RunEnvironment;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunManifestTest {

    private static Pod pod(String name, String node, String qos, String imageId) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .endSpec()
                .withNewStatus()
                .withQosClass(qos)
                .addNewContainerStatus()
                .withName("main")
                .withImage("stackbench/x:1")
                .withImageID(imageId)
                .endContainerStatus()
                .endStatus()
                .build();
    }

    private static Node node(String name, String kernel, String capacity, String allocatable) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .withNewNodeInfo()
                .withKernelVersion(kernel)
                .withOsImage("Debian GNU/Linux 12 (bookworm)")
                .withContainerRuntimeVersion("containerd://1.6.20")
                .withKubeletVersion("v1.36.3")
                .withArchitecture("amd64")
                .endNodeInfo()
                .withCapacity(Map.of("cpu", new Quantity(capacity)))
                .withAllocatable(Map.of("cpu", new Quantity(allocatable)))
                .endStatus()
                .build();
    }

    @Test
    void recordsEachRolesDigestAndQosAndEveryNodeWithTheRolesItRan() {
        Map<String, List<Pod>> pods = new LinkedHashMap<>();
        pods.put("target", List.of(pod("t-1", "target-0", "Guaranteed", "docker.io/stackbench/webflux-app@sha256:aa")));
        pods.put("delay-service", List.of(pod("d-1", "backend-0", "Guaranteed", "sha256:bb")));
        pods.put(
                "runner",
                List.of(
                        pod("r-1", "loadgen-0", "Guaranteed", "sha256:cc"),
                        pod("r-2", "backend-0", "Burstable", "sha256:cc")));
        Map<String, Node> nodes = Map.of(
                "target-0", node("target-0", "6.1.0", "2", "1"),
                "backend-0", node("backend-0", "6.1.0", "2", "2"));
        RunEnvironment environment = new RunEnvironment();

        RunManifest.describePods(environment, pods, name -> Optional.ofNullable(nodes.get(name)));

        assertThat(environment.getImageDigests())
                .containsExactly(
                        Map.entry("target", "docker.io/stackbench/webflux-app@sha256:aa"),
                        Map.entry("delay-service", "sha256:bb"),
                        Map.entry("runner", "sha256:cc"));
        assertThat(environment.getQosClasses())
                .containsEntry("target", "Guaranteed")
                .containsEntry("runner", "Guaranteed");
        // loadgen-0 could not be read: left out, not guessed.
        assertThat(environment.getNodes()).extracting(NodeFacts::getName).containsExactly("target-0", "backend-0");
        NodeFacts backend = environment.getNodes().get(1);
        assertThat(backend.getRoles()).containsExactly("delay-service", "runner");
        assertThat(backend.getContainerRuntime()).isEqualTo("containerd://1.6.20");
        assertThat(environment.getNodes().get(0).getCpuAllocatable()).isEqualTo("1");
        assertThat(environment.getNodes().get(0).getCpuCapacity()).isEqualTo("2");
        assertThat(environment.getNodes().get(0).getKernelVersion()).isEqualTo("6.1.0");
    }

    @Test
    void podsWithoutStatusLeaveTheManifestEmptyRatherThanWrong() {
        RunEnvironment environment = new RunEnvironment();
        RunManifest.describePods(
                environment, Map.of("target", List.of(new PodBuilder().build())), name -> Optional.empty());

        assertThat(environment.getImageDigests()).isNull();
        assertThat(environment.getQosClasses()).isNull();
        assertThat(environment.getNodes()).isNull();
    }
}
