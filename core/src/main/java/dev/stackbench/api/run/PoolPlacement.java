package dev.stackbench.api.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.stackbench.api.SpecRules;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;
import lombok.Getter;
import lombok.Setter;

/**
 * Node selection for one role.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Getter
@Setter
public class PoolPlacement {

    @JsonPropertyDescription("Node labels the pods of this role require.")
    private Map<String, String> nodeSelector;

    @Size(max = SpecRules.MAX_TOLERATIONS)
    @ValidationRule(value = SpecRules.TOLERATION_EFFECT, message = SpecRules.TOLERATION_EFFECT_MESSAGE)
    @ValidationRule(value = SpecRules.TOLERATION_OPERATOR, message = SpecRules.TOLERATION_OPERATOR_MESSAGE)
    @JsonPropertyDescription("Taints of the dedicated nodes the pods of this role tolerate, as in a pod spec: key,"
            + " operator (Equal or Exists), value, effect (NoSchedule, PreferNoSchedule or NoExecute; empty for"
            + " every effect).")
    private List<Toleration> tolerations;

    public PoolPlacement withNodeSelector(Map<String, String> nodeSelector) {
        this.nodeSelector = nodeSelector;
        return this;
    }

    public PoolPlacement withTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
        return this;
    }
}
