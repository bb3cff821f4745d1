package dev.stackbench.chart;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The most the chart may grant the operator, written out rule by rule: what kind of role a rule may sit in (a
 * namespaced Role, or a ClusterRole that applies everywhere), its API group, its resource, and its verbs. Anything the
 * chart renders beyond it (another resource, another verb, a wildcard, a rule in a ClusterRole that belongs in a
 * Role) is named by {@link #excess}, so a widened rule fails a test until this list is changed with it, on purpose.
 */
final class RbacAllowList {

    /** One allowed grant: {@code kind} Role or ClusterRole, {@code group} "" for the core API group. */
    record Grant(String kind, String group, String resource, Set<String> verbs) {}

    private static final Set<String> READ = Set.of("get", "list", "watch");
    private static final Set<String> OWN = Set.of("create", "get", "list", "watch", "update", "patch", "delete");

    /** What the operator does in a namespace it watches (templates/_helpers.tpl, stackbench.operatorRules). */
    static List<Grant> operatorRules(String kind, boolean readsSecretLabels) {
        List<Grant> grants = new ArrayList<>(List.of(
                new Grant(
                        kind,
                        "stackbench.dev",
                        "benchmarkruns",
                        Set.of("create", "get", "list", "watch", "patch", "update")),
                new Grant(kind, "stackbench.dev", "benchmarkruns/status", Set.of("get", "patch", "update")),
                new Grant(kind, "stackbench.dev", "benchmarkruns/finalizers", Set.of("update", "patch")),
                new Grant(
                        kind,
                        "stackbench.dev",
                        "benchmarkcomparisons",
                        Set.of("get", "list", "watch", "patch", "update")),
                new Grant(kind, "stackbench.dev", "benchmarkcomparisons/status", Set.of("get", "patch", "update")),
                new Grant(kind, "apps", "deployments", OWN),
                new Grant(kind, "", "services", OWN),
                new Grant(kind, "", "configmaps", OWN),
                new Grant(
                        kind,
                        "",
                        "secrets",
                        readsSecretLabels ? Set.of("create", "delete", "get") : Set.of("create", "delete")),
                new Grant(kind, "networking.k8s.io", "networkpolicies", OWN),
                new Grant(kind, "k6.io", "testruns", OWN),
                new Grant(kind, "", "pods", READ),
                // The verification pod of each run (VerificationPod), created and deleted by name.
                new Grant(kind, "", "pods", Set.of("create", "delete")),
                new Grant(kind, "", "pods/log", Set.of("get")),
                new Grant(kind, "", "pods/proxy", Set.of("get")),
                new Grant(kind, "batch", "jobs", READ),
                new Grant(kind, "", "events", Set.of("create", "patch"))));
        return grants;
    }

    /** Nodes belong to no namespace: reading them and their kubelets' metrics needs a ClusterRole. */
    static final List<Grant> NODE_METRICS = List.of(
            new Grant("ClusterRole", "", "nodes", Set.of("get")),
            new Grant("ClusterRole", "", "nodes/metrics", Set.of("get")));

    /** The leader-election Lease, in the release namespace. */
    static final List<Grant> LEADER_ELECTION =
            List.of(new Grant("Role", "coordination.k8s.io", "leases", Set.of("create", "get", "update", "patch")));

    private RbacAllowList() {}

    /**
     * Every grant of the rendered Roles and ClusterRoles that {@code allowed} does not cover, one line each
     * ({@code ClusterRole sb-stackbench: apps/deployments [create]}); wildcards and non-resource URLs always count.
     */
    static List<String> excess(List<JsonNode> roles, List<Grant> allowed) {
        List<String> excess = new ArrayList<>();
        for (JsonNode role : roles) {
            String kind = role.path("kind").asText();
            String name = kind + " " + role.path("metadata").path("name").asText();
            for (JsonNode rule : role.path("rules")) {
                if (rule.has("nonResourceURLs")) {
                    excess.add(name + ": nonResourceURLs " + rule.path("nonResourceURLs"));
                }
                for (JsonNode group : rule.path("apiGroups")) {
                    for (JsonNode resource : rule.path("resources")) {
                        Set<String> verbs = new TreeSet<>();
                        rule.path("verbs").forEach(verb -> verbs.add(verb.asText()));
                        Set<String> permitted = allowed.stream()
                                .filter(grant -> grant.kind().equals(kind)
                                        && grant.group().equals(group.asText())
                                        && grant.resource().equals(resource.asText()))
                                .flatMap(grant -> grant.verbs().stream())
                                .collect(java.util.stream.Collectors.toSet());
                        verbs.removeAll(permitted);
                        if (!verbs.isEmpty()) {
                            excess.add(name + ": " + group.asText() + "/" + resource.asText() + " " + verbs);
                        }
                    }
                }
            }
        }
        return excess;
    }

    /** Where each rendered role is bound: role kind and name to the kind of binding and its namespace ("" cluster). */
    static Map<String, String> bindings(List<JsonNode> bindings) {
        Map<String, String> bound = new java.util.TreeMap<>();
        for (JsonNode binding : bindings) {
            String where = binding.path("kind").asText() + "@"
                    + binding.path("metadata").path("namespace").asText("");
            bound.merge(
                    binding.path("roleRef").path("kind").asText() + " "
                            + binding.path("roleRef").path("name").asText(),
                    where,
                    (a, b) -> a + "," + b);
        }
        return bound;
    }
}
