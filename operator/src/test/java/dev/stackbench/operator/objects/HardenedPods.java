package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;

/** What every pod the operator creates itself must show: no API token, a read-only image, sized scratch space. */
final class HardenedPods {

    private HardenedPods() {}

    static void assertHardened(PodSpec pod, String... writablePaths) {
        assertThat(pod.getAutomountServiceAccountToken())
                .as("no service-account token in the pod")
                .isFalse();
        for (Container container : pod.getContainers()) {
            assertThat(container.getSecurityContext().getReadOnlyRootFilesystem())
                    .as("container %s has a read-only root filesystem", container.getName())
                    .isTrue();
            assertThat(container.getVolumeMounts())
                    .extracting(VolumeMount::getMountPath)
                    .contains(writablePaths);
        }
        for (Volume volume : pod.getVolumes()) {
            assertThat(volume.getEmptyDir())
                    .as("volume %s is an emptyDir", volume.getName())
                    .isNotNull();
            assertThat(volume.getEmptyDir().getSizeLimit())
                    .as("emptyDir %s has a size limit", volume.getName())
                    .isNotNull();
        }
    }
}
