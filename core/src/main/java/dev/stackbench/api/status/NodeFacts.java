package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.Getter;
import lombok.Setter;

/** A node a run's pods ran on, as the node reports itself. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class NodeFacts {

    @JsonPropertyDescription("Roles of the run whose pods ran on the node (target, delay-service, runner).")
    private List<String> roles;

    private String name;

    private String kernelVersion;

    private String osImage;

    @JsonPropertyDescription("Container runtime and its version, e.g. containerd://1.7.0.")
    private String containerRuntime;

    private String kubeletVersion;

    private String architecture;

    @JsonPropertyDescription("CPUs the node has.")
    private String cpuCapacity;

    @JsonPropertyDescription("CPUs the node offers to pods.")
    private String cpuAllocatable;

    public NodeFacts withRoles(List<String> roles) {
        this.roles = roles;
        return this;
    }

    public NodeFacts withName(String name) {
        this.name = name;
        return this;
    }

    public NodeFacts withKernelVersion(String kernelVersion) {
        this.kernelVersion = kernelVersion;
        return this;
    }

    public NodeFacts withOsImage(String osImage) {
        this.osImage = osImage;
        return this;
    }

    public NodeFacts withContainerRuntime(String containerRuntime) {
        this.containerRuntime = containerRuntime;
        return this;
    }

    public NodeFacts withKubeletVersion(String kubeletVersion) {
        this.kubeletVersion = kubeletVersion;
        return this;
    }

    public NodeFacts withArchitecture(String architecture) {
        this.architecture = architecture;
        return this;
    }

    public NodeFacts withCpuCapacity(String cpuCapacity) {
        this.cpuCapacity = cpuCapacity;
        return this;
    }

    public NodeFacts withCpuAllocatable(String cpuAllocatable) {
        this.cpuAllocatable = cpuAllocatable;
        return this;
    }
}
