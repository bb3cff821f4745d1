package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.DatabaseSpec;
import dev.stackbench.api.run.ExternalDatabaseSpec;
import dev.stackbench.api.run.SecretKeysRef;
import dev.stackbench.operator.ExampleRuns;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TargetDeploymentTest {

    private final TargetDeployment target = new TargetDeployment(ExampleRuns.catalogue(), ExampleRuns.settings());

    @Test
    void placesTheVariantsImageOnTheTargetPoolWithGuaranteedQos() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Deployment deployment = target.desired(run);

        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container container = pod.getContainers().getFirst();
        assertThat(deployment.getMetadata().getName()).isEqualTo("webflux-r2dbc-target");
        assertThat(container.getImage()).isEqualTo("stackbench/webflux-app:1.2.3");
        assertThat(container.getResources().getRequests())
                .isEqualTo(container.getResources().getLimits())
                .containsEntry("cpu", new Quantity("1"))
                .containsEntry("memory", new Quantity("1Gi"));
        assertThat(pod.getNodeSelector()).containsExactlyEntriesOf(Map.of("stackbench.dev/pool", "target"));
        assertThat(pod.getTolerations()).singleElement().satisfies(toleration -> {
            assertThat(toleration.getKey()).isEqualTo("stackbench.dev/pool");
            assertThat(toleration.getValue()).isEqualTo("target");
            assertThat(toleration.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
        assertThat(container.getReadinessProbe().getHttpGet().getPort().getStrVal())
                .isEqualTo("management");
        assertThat(container.getPorts())
                .extracting(port -> port.getContainerPort())
                .containsExactly(8080, 8081);
        // Pod Security "restricted", so runs work in namespaces that enforce it.
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        // The JVM writes only below /tmp, a sized emptyDir.
        HardenedPods.assertHardened(pod, "/tmp");
    }

    @Test
    void configuresTheContractEnvironmentAndSizesTheJvmToTheLimits() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getTarget().setEnv(Map.of("DB_POOL_SIZE", "50"));

        Map<String, EnvVar> env = env(target.desired(run));

        assertThat(env.get("SPRING_PROFILES_ACTIVE").getValue()).isEqualTo("webflux-r2dbc");
        assertThat(env.get("BIND_ADDRESS").getValue()).isEqualTo("0.0.0.0");
        assertThat(env.get("DELAY_SERVICE_URL").getValue()).isEqualTo("http://webflux-r2dbc-delay.bench.svc:8090");
        // No external database named: the run's own, through its Service and Secret.
        assertThat(env.get("DB_HOST").getValue()).isEqualTo("webflux-r2dbc-db");
        assertThat(env.get("DB_PORT").getValue()).isEqualTo("5432");
        assertThat(env.get("DB_NAME").getValue()).isEqualTo("stackbench");
        assertThat(env.get("DB_POOL_SIZE").getValue()).isEqualTo("50");
        assertThat(env.get("DB_USER").getValueFrom().getSecretKeyRef().getName())
                .isEqualTo("webflux-r2dbc-db");
        assertThat(env.get("DB_USER").getValueFrom().getSecretKeyRef().getKey()).isEqualTo("username");
        assertThat(env.get("DB_PASSWORD").getValueFrom().getSecretKeyRef().getKey())
                .isEqualTo("password");
        // A database of its own starts empty: nothing of an earlier run to remove.
        assertThat(env.get(dev.stackbench.model.RunApps.RESET_DATABASE_ENV).getValue())
                .isEqualTo("false");
        // The target starts beside its database: its migration waits for it, a second at a time.
        assertThat(env.get("DB_CONNECT_RETRIES").getValue()).isEqualTo("120");
        // The readiness probe's path, /actuator/health/readiness, exists only with Spring Boot's probes on.
        assertThat(env.get("MANAGEMENT_ENDPOINT_HEALTH_PROBES_ENABLED").getValue())
                .isEqualTo("true");
        // The example sizes the heap itself (MaxRAMPercentage, of the 1Gi limit), so no -Xmx is added.
        assertThat(env.get("JAVA_TOOL_OPTIONS").getValue())
                .isEqualTo("-XX:ActiveProcessorCount=1 -XX:MaxRAM=1073741824 -XX:MaxRAMPercentage=75");
    }

    @Test
    void aUsersOwnDatabaseWaitIsKeptAndGivenOnce() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getTarget().setEnv(Map.of("DB_CONNECT_RETRIES", "5"));

        assertThat(named(target.desired(run), "DB_CONNECT_RETRIES"))
                .singleElement()
                .satisfies(var -> assertThat(var.getValue()).isEqualTo("5"));
    }

    @Test
    void aUsersOwnProbeSwitchIsKeptAndGivenOnce() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getTarget().setEnv(Map.of("MANAGEMENT_ENDPOINT_HEALTH_PROBES_ENABLED", "false"));

        assertThat(named(target.desired(run), "MANAGEMENT_ENDPOINT_HEALTH_PROBES_ENABLED"))
                .singleElement()
                .satisfies(var -> assertThat(var.getValue()).isEqualTo("false"));
    }

    @Test
    void leavesTheImagesStartCacheOutOnlyForOptionsThatChooseAClassArchive() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        assertThat(env(target.desired(run))).doesNotContainKey("JDK_JAVA_OPTIONS");

        // The JVM refuses -Xshare or an archive of its own beside the image's -XX:AOTCache: the image's goes.
        run.getSpec().getTarget().setJvmOptions("-Xshare:off -Xss512k");
        assertThat(env(target.desired(run)).get("JDK_JAVA_OPTIONS").getValue()).isEmpty();
        run.getSpec().getTarget().setJvmOptions("-XX:SharedArchiveFile=/tmp/app.jsa");
        assertThat(env(target.desired(run)).get("JDK_JAVA_OPTIONS").getValue()).isEmpty();

        // A user's own value is kept, once.
        run.getSpec().getTarget().setEnv(Map.of("JDK_JAVA_OPTIONS", "-XX:AOTCache=/mine.aot"));
        run.getSpec().getTarget().setJvmOptions("-XX:AOTMode=on");
        assertThat(named(target.desired(run), "JDK_JAVA_OPTIONS"))
                .singleElement()
                .satisfies(e -> assertThat(e.getValue()).isEqualTo("-XX:AOTCache=/mine.aot"));
    }

    @Test
    void usesTheSpecsDatabaseAndSecretAndAnImageOverride() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec().getTarget().setImage("registry.example/own:7");
        run.getSpec().getTarget().setJvmOptions(null);
        run.getSpec().getTarget().getResources().setCpu("1500m");
        run.getSpec()
                .getBackend()
                .setDatabase(new DatabaseSpec()
                        .withExternal(new ExternalDatabaseSpec()
                                .withHost("pg.example")
                                .withPort(6432)
                                .withDatabase("bench")
                                .withSecretRef(new SecretKeysRef()
                                        .withName("pg")
                                        .withUserKey("u")
                                        .withPasswordKey("p"))));

        Deployment deployment = target.desired(run);
        Map<String, EnvVar> env = env(deployment);

        assertThat(deployment
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .getFirst()
                        .getImage())
                .isEqualTo("registry.example/own:7");
        assertThat(env.get("DB_HOST").getValue()).isEqualTo("pg.example");
        assertThat(env.get("DB_PORT").getValue()).isEqualTo("6432");
        assertThat(env.get("DB_NAME").getValue()).isEqualTo("bench");
        assertThat(env.get("DB_USER").getValueFrom().getSecretKeyRef().getName())
                .isEqualTo("pg");
        assertThat(env.get("DB_USER").getValueFrom().getSecretKeyRef().getKey()).isEqualTo("u");
        assertThat(env.get("DB_PASSWORD").getValueFrom().getSecretKeyRef().getKey())
                .isEqualTo("p");
        // A shared database may hold the orders of earlier runs: the target removes them at start.
        assertThat(env.get(dev.stackbench.model.RunApps.RESET_DATABASE_ENV).getValue())
                .isEqualTo("true");
        assertThat(env.get("JAVA_TOOL_OPTIONS").getValue())
                .isEqualTo("-XX:ActiveProcessorCount=2 -XX:MaxRAM=1073741824 -Xmx768m");
    }

    @Test
    void isLabelledAndOwnedByTheRun() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Deployment deployment = target.desired(run);

        assertThat(deployment.getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/managed-by", "stackbench")
                .containsEntry("stackbench.dev/run", "webflux-r2dbc");
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/managed-by", "stackbench");
        assertThat(deployment.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(owner -> {
                    assertThat(owner.getKind()).isEqualTo("BenchmarkRun");
                    assertThat(owner.getUid()).isEqualTo(run.getMetadata().getUid());
                    assertThat(owner.getController()).isTrue();
                });
    }

    /** Every variable of the target container with this name, in order (a name given twice shows twice). */
    private static List<EnvVar> named(Deployment deployment, String name) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().getFirst().getEnv().stream()
                .filter(var -> var.getName().equals(name))
                .toList();
    }

    private static Map<String, EnvVar> env(Deployment deployment) {
        return deployment.getSpec().getTemplate().getSpec().getContainers().getFirst().getEnv().stream()
                .collect(Collectors.toMap(EnvVar::getName, var -> var));
    }
}
