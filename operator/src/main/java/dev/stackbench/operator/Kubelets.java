package dev.stackbench.operator;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kubelets' own API, read as Prometheus reads it: {@code https://<node InternalIP>:<kubelet port>/metrics/cadvisor}
 * with the operator's credentials. The kubelet asks the API server whether they may (webhook authorization), and
 * {@code get} on {@code nodes/metrics} suffices; the API server's node proxy would need {@code nodes/proxy}, which
 * reaches every endpoint of every kubelet (logs, exec). The kubelet's serving certificate is checked against the
 * cluster's CA unless {@value #INSECURE_ENV} is true (kubelets with self-signed certificates, as kind's).
 */
final class Kubelets {

    /** Environment variable (chart value {@code rbac.kubeletInsecureSkipTLSVerify}) that skips that check. */
    static final String INSECURE_ENV = "STACKBENCH_KUBELET_INSECURE_SKIP_TLS_VERIFY";

    private static final int DEFAULT_PORT = 10250;

    private final KubernetesClient client;
    private final boolean verify;
    private final KubernetesClient kubeletClient;
    private final Map<String, String> urls = new ConcurrentHashMap<>();

    Kubelets(KubernetesClient client) {
        this(client, !"true".equalsIgnoreCase(System.getenv(INSECURE_ENV)));
    }

    /**
     * The kubelets are read with a client of their own: the operator's credentials and CA, but no retries (the
     * client's default retries a failed connection or handshake for some 25 s with growing pauses, and a kubelet
     * that refuses is asked again on the next scrape anyway), and without the CA check when {@code verify} is false.
     */
    Kubelets(KubernetesClient client, boolean verify) {
        this.client = client;
        this.verify = verify;
        ConfigBuilder config = new ConfigBuilder(client.getConfiguration()).withRequestRetryBackoffLimit(0);
        if (!verify) {
            config.withTrustCerts(true).withDisableHostnameVerification(true);
        }
        this.kubeletClient =
                new KubernetesClientBuilder().withConfig(config.build()).build();
    }

    /** The node's cAdvisor metrics, with the byte and time limits of {@link ProxyPages}. */
    String cadvisor(String node) {
        String url = urls.computeIfAbsent(node, this::cadvisorUrl);
        HttpClient http = kubeletClient.getHttpClient();
        try {
            return ProxyPages.read(
                    http, url, ProxyPages.CADVISOR_LIMIT, "/metrics/cadvisor of node " + node + " (" + url + ")");
        } catch (ProxyPages.Unreadable e) {
            String hint = e.getMessage().contains("answered HTTP 403")
                    ? " (the operator needs get on nodes/metrics: chart value rbac.nodeMetrics)"
                    : e.getMessage().contains("answered HTTP")
                            ? ""
                            : verify
                                    ? " (a kubelet whose serving certificate the cluster's CA did not sign, as on kind,"
                                            + " needs the chart value rbac.kubeletInsecureSkipTLSVerify=true)"
                                    : "";
            throw new ProxyPages.Unreadable(e.getMessage() + hint, e);
        }
    }

    /** Where the node's kubelet listens: its InternalIP (else any address) and the port its status gives. */
    private String cadvisorUrl(String name) {
        Node node = client.nodes().withName(name).get();
        if (node == null || node.getStatus() == null) {
            throw new ProxyPages.Unreadable("node " + name + " is not there any more", null);
        }
        List<NodeAddress> addresses =
                Optional.ofNullable(node.getStatus().getAddresses()).orElse(List.of());
        String address = addresses.stream()
                .sorted(Comparator.comparing(
                        a -> "InternalIP".equals(a.getType()) ? 0 : "ExternalIP".equals(a.getType()) ? 1 : 2))
                .filter(a -> !"Hostname".equals(a.getType()))
                .map(NodeAddress::getAddress)
                .findFirst()
                .orElseThrow(() -> new ProxyPages.Unreadable("node " + name + " has no address in its status", null));
        Integer port = node.getStatus().getDaemonEndpoints() == null
                        || node.getStatus().getDaemonEndpoints().getKubeletEndpoint() == null
                ? null
                : node.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort();
        String host = address.contains(":") ? "[" + address + "]" : address;
        return "https://" + host + ":" + (port == null || port == 0 ? DEFAULT_PORT : port) + "/metrics/cadvisor";
    }
}
