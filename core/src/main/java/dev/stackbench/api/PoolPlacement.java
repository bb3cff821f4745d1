package dev.stackbench.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * Node selection for one role.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class PoolPlacement {

    @JsonPropertyDescription("Node labels the pods of this role require.")
    private Map<String, String> nodeSelector;

    @JsonPropertyDescription("Taints of the dedicated nodes the pods of this role tolerate.")
    private List<Toleration> tolerations;

    public Map<String, String> getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(Map<String, String> nodeSelector) {
        this.nodeSelector = nodeSelector;
    }

    public PoolPlacement withNodeSelector(Map<String, String> nodeSelector) {
        this.nodeSelector = nodeSelector;
        return this;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }

    public PoolPlacement withTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
        return this;
    }
}
