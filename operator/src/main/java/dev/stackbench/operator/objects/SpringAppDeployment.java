package dev.stackbench.operator.objects;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.PoolPlacement;
import dev.stackbench.api.run.ResourcesSpec;
import dev.stackbench.model.JvmSizing;
import dev.stackbench.model.SpringApp;
import dev.stackbench.operator.RunLabels;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Deployment of a Spring Boot app of a run (target and delay service) as the shared model describes it: one role
 * of the run on its pool, requests equal to limits (Guaranteed QoS), the model's ports, environment and health
 * endpoint as the readiness probe.
 */
final class SpringAppDeployment {

    private SpringAppDeployment() {}

    /**
     * @param model the app as both modes run it
     * @param env the model's environment as container variables, plus what only a cluster adds (Secret references)
     */
    record App(
            String name,
            String role,
            String container,
            String image,
            int replicas,
            PoolPlacement placement,
            SpringApp model,
            List<EnvVar> env) {}

    /**
     * The image's own JVM options: stackbench's app images name their AOT cache there (hack/image-base/aot-cache.sh),
     * which the JVM refuses beside options that choose another class archive or none.
     */
    static final String IMAGE_JVM_OPTIONS_ENV = "JDK_JAVA_OPTIONS";

    /**
     * The model's environment as plain container variables, in the model's order; the image's AOT cache is left out
     * (an empty {@value #IMAGE_JVM_OPTIONS_ENV}) for JVM options that choose a class archive of their own.
     */
    static List<EnvVar> plainEnv(SpringApp app) {
        List<EnvVar> env = new ArrayList<>();
        app.environment().forEach((name, value) -> env.add(new EnvVar(name, value, null)));
        if (JvmSizing.choosesClassArchive(app.userJvmOptions())
                && !app.environment().containsKey(IMAGE_JVM_OPTIONS_ENV)) {
            env.add(new EnvVar(IMAGE_JVM_OPTIONS_ENV, "", null));
        }
        // The readiness probe's path exists in any Spring Boot app with this set, an image of the user's too.
        if (!app.environment().containsKey(SpringApp.PROBES_ENABLED_ENV)) {
            env.add(new EnvVar(SpringApp.PROBES_ENABLED_ENV, "true", null));
        }
        return env;
    }

    static final String TMP_VOLUME = "tmp";

    /** Room for Tomcat's and Netty's temporary files and the JVM's perf data, with a crash report to spare. */
    static final String TMP_SIZE = "64Mi";

    static Deployment desired(BenchmarkRun run, App app) {
        ResourcesSpec resources = app.model().resources();
        Map<String, Quantity> limits = Map.of(
                "cpu", new Quantity(resources.getCpu()),
                "memory", new Quantity(resources.getMemory()));
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(app.name())
                .withNamespace(run.getMetadata().getNamespace())
                .withLabels(RunLabels.forRole(run, app.role()))
                .withOwnerReferences(RunLabels.ownerReference(run))
                .endMetadata()
                .withNewSpec()
                .withReplicas(app.replicas())
                .withNewSelector()
                .withMatchLabels(RunLabels.selector(run, app.role()))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(RunLabels.forRole(run, app.role()))
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(app.placement().getNodeSelector())
                .withTolerations(app.placement().getTolerations())
                .withEnableServiceLinks(false)
                // The apps call no Kubernetes API.
                .withAutomountServiceAccountToken(false)
                .withSecurityContext(RestrictedPods.pod())
                .addNewContainer()
                .withName(app.container())
                .withImage(app.image())
                .withSecurityContext(RestrictedPods.container())
                .addNewPort()
                .withName("http")
                .withContainerPort(app.model().endpoint().httpPort())
                .endPort()
                .addNewPort()
                .withName("management")
                .withContainerPort(app.model().endpoint().managementPort())
                .endPort()
                .withEnv(app.env())
                .withVolumeMounts(RestrictedPods.mount(TMP_VOLUME, RestrictedPods.TMP))
                .withNewResources()
                .withRequests(limits)
                .withLimits(limits)
                .endResources()
                .withNewReadinessProbe()
                .withNewHttpGet()
                .withPath(SpringApp.READINESS_PATH)
                .withNewPort("management")
                .endHttpGet()
                // Cheap (no database check), so every second: a start is seen Ready half a second sooner on average.
                .withPeriodSeconds(1)
                // Once Ready, a replica leaves its Service only after 30 s of failed probes: a health answer that is
                // slow under load (or a prober on a busy node) must not take the target out of the run, which would
                // turn the rest of the run into refused connections that measure the prober, not the stack.
                .withFailureThreshold(30)
                .withTimeoutSeconds(5)
                .endReadinessProbe()
                .endContainer()
                .withVolumes(RestrictedPods.scratch(TMP_VOLUME, TMP_SIZE, false))
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }
}
