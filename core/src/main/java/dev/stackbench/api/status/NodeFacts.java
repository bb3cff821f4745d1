package dev.stackbench.api.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** A node a run's pods ran on, as the node reports itself. */
@JsonInclude(JsonInclude.Include.NON_NULL)
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

    public List<String> getRoles() {
        return roles;
    }

    public void setRoles(List<String> roles) {
        this.roles = roles;
    }

    public NodeFacts withRoles(List<String> roles) {
        this.roles = roles;
        return this;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public NodeFacts withName(String name) {
        this.name = name;
        return this;
    }

    public String getKernelVersion() {
        return kernelVersion;
    }

    public void setKernelVersion(String kernelVersion) {
        this.kernelVersion = kernelVersion;
    }

    public NodeFacts withKernelVersion(String kernelVersion) {
        this.kernelVersion = kernelVersion;
        return this;
    }

    public String getOsImage() {
        return osImage;
    }

    public void setOsImage(String osImage) {
        this.osImage = osImage;
    }

    public NodeFacts withOsImage(String osImage) {
        this.osImage = osImage;
        return this;
    }

    public String getContainerRuntime() {
        return containerRuntime;
    }

    public void setContainerRuntime(String containerRuntime) {
        this.containerRuntime = containerRuntime;
    }

    public NodeFacts withContainerRuntime(String containerRuntime) {
        this.containerRuntime = containerRuntime;
        return this;
    }

    public String getKubeletVersion() {
        return kubeletVersion;
    }

    public void setKubeletVersion(String kubeletVersion) {
        this.kubeletVersion = kubeletVersion;
    }

    public NodeFacts withKubeletVersion(String kubeletVersion) {
        this.kubeletVersion = kubeletVersion;
        return this;
    }

    public String getArchitecture() {
        return architecture;
    }

    public void setArchitecture(String architecture) {
        this.architecture = architecture;
    }

    public NodeFacts withArchitecture(String architecture) {
        this.architecture = architecture;
        return this;
    }

    public String getCpuCapacity() {
        return cpuCapacity;
    }

    public void setCpuCapacity(String cpuCapacity) {
        this.cpuCapacity = cpuCapacity;
    }

    public NodeFacts withCpuCapacity(String cpuCapacity) {
        this.cpuCapacity = cpuCapacity;
        return this;
    }

    public String getCpuAllocatable() {
        return cpuAllocatable;
    }

    public void setCpuAllocatable(String cpuAllocatable) {
        this.cpuAllocatable = cpuAllocatable;
    }

    public NodeFacts withCpuAllocatable(String cpuAllocatable) {
        this.cpuAllocatable = cpuAllocatable;
        return this;
    }
}
