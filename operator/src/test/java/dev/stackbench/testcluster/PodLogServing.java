package dev.stackbench.testcluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serves one log file for every pod matching a label selector, including pods created later (such
 * as the pods of a Job), until closed. Returned by {@link TestCluster#servePodLogs(String, Map, String)}.
 */
public final class PodLogServing implements AutoCloseable {

    private final SharedIndexInformer<Pod> informer;
    private final Set<String> servedPodUids = ConcurrentHashMap.newKeySet();
    private final Path logFile;

    PodLogServing(KwokPodLogs podLogs, String namespace, Map<String, String> podLabels, Path logFile) {
        this.logFile = logFile;
        this.informer = podLogs.client().pods().inNamespace(namespace).withLabels(podLabels)
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Pod pod) {
                        serve(podLogs, pod);
                    }

                    @Override
                    public void onUpdate(Pod oldPod, Pod newPod) {
                        serve(podLogs, newPod);
                    }

                    @Override
                    public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
                        servedPodUids.remove(pod.getMetadata().getUid());
                    }
                });
    }

    private void serve(KwokPodLogs podLogs, Pod pod) {
        if (servedPodUids.add(pod.getMetadata().getUid())) {
            try {
                podLogs.register(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), logFile, pod);
            } catch (RuntimeException e) {
                // Retried on the pod's next update; a pod that never updates again shows up as a
                // missing log in the test that asked for it.
                servedPodUids.remove(pod.getMetadata().getUid());
                System.err.println("serving logs for pod " + pod.getMetadata().getName() + " failed: " + e);
            }
        }
    }

    /** The file every matching pod's log is read from. */
    public Path logFile() {
        return logFile;
    }

    /** The uids of the pods whose logs are served so far. */
    public Set<String> servedPodUids() {
        return Set.copyOf(servedPodUids);
    }

    /** Stops serving new pods; pods already served keep their logs. */
    @Override
    public void close() {
        informer.close();
    }
}
