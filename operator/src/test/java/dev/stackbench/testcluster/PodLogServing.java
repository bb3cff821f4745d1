package dev.stackbench.testcluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Serves logs for every pod matching a label selector, including pods created later (such as the pods of a
 * Job), until closed. Returned by {@link TestCluster#servePodLogs(String, Map, Function)}.
 */
public final class PodLogServing implements AutoCloseable {

    private final SharedIndexInformer<Pod> informer;
    private final Map<String, Path> logFilesByPodUid = new ConcurrentHashMap<>();

    PodLogServing(
            KwokPodLogs podLogs, String namespace, Map<String, String> podLabels, Function<Pod, String> contentForPod) {
        this.informer = podLogs.client()
                .pods()
                .inNamespace(namespace)
                .withLabels(podLabels)
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Pod pod) {
                        serve(podLogs, contentForPod, pod);
                    }

                    @Override
                    public void onUpdate(Pod oldPod, Pod newPod) {
                        serve(podLogs, contentForPod, newPod);
                    }

                    @Override
                    public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
                        logFilesByPodUid.remove(pod.getMetadata().getUid());
                    }
                });
    }

    private void serve(KwokPodLogs podLogs, Function<Pod, String> contentForPod, Pod pod) {
        String uid = pod.getMetadata().getUid();
        if (logFilesByPodUid.containsKey(uid)) {
            return;
        }
        try {
            String namespace = pod.getMetadata().getNamespace();
            String name = pod.getMetadata().getName();
            Path file = podLogs.writeLogFile(namespace, name, contentForPod.apply(pod));
            podLogs.register(namespace, name, file, pod);
            logFilesByPodUid.put(uid, file);
        } catch (RuntimeException e) {
            // Retried on the pod's next update; a pod that never changes again shows up as a missing log
            // in the test that asked for it, with this message in its output.
            System.err.println("serving logs for pod " + pod.getMetadata().getName() + " failed: " + e);
        }
    }

    /** The log file of each pod served so far, by pod uid. */
    public Map<String, Path> logFilesByPodUid() {
        return Map.copyOf(logFilesByPodUid);
    }

    /** The uids of the pods whose logs are served so far. */
    public Set<String> servedPodUids() {
        return Set.copyOf(logFilesByPodUid.keySet());
    }

    /** Stops serving new pods; pods already served keep their logs. */
    @Override
    public void close() {
        informer.close();
    }
}
