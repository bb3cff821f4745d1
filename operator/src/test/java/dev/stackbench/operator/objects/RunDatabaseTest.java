package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.ResourcesSpec;
import dev.stackbench.operator.ExampleRuns;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

class RunDatabaseTest {

    private final RunDatabase database = new RunDatabase(ExampleRuns.settings());

    @Test
    void isSizedLikeTheTargetWithRequestsEqualToLimitsOnTheBackendPool() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Deployment deployment = database.deployment(run);
        PodSpec pod = deployment.getSpec().getTemplate().getSpec();
        Container container = pod.getContainers().getFirst();

        // No spec.backend.database: the example's target size (1 CPU, 1Gi), Guaranteed QoS.
        assertThat(container.getResources().getLimits())
                .containsEntry("cpu", new io.fabric8.kubernetes.api.model.Quantity("1"))
                .containsEntry("memory", new io.fabric8.kubernetes.api.model.Quantity("1Gi"));
        assertThat(container.getResources().getRequests())
                .isEqualTo(container.getResources().getLimits());
        assertThat(pod.getNodeSelector()).containsEntry("stackbench.dev/pool", "backend");
        assertThat(container.getImage()).isEqualTo("stackbench/postgres:15");
        assertThat(container.getArgs())
                .containsSubsequence("-c", "max_connections=300")
                .contains("fsync=off", "synchronous_commit=off", "full_page_writes=off");
        assertThat(container.getReadinessProbe().getExec().getCommand()).startsWith("pg_isready");
        // The target reaches the server once it listens, before the kubelet's next probe marks it Ready.
        assertThat(database.service(run).getSpec().getPublishNotReadyAddresses())
                .isTrue();
        assertThat(deployment.getSpec().getStrategy().getType()).isEqualTo("Recreate");
        // Deleted with its run, it may not hold the backend node for the default 30 s (nothing in it is kept).
        assertThat(pod.getTerminationGracePeriodSeconds()).isEqualTo(5L);
        assertThat(deployment.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("webflux-r2dbc"));
        // Pod Security "restricted": a fixed non-root user, so an image whose default user is root runs too.
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        // PostgreSQL writes its data, its socket and temporary files, each on a sized emptyDir.
        HardenedPods.assertHardened(pod, "/var/lib/postgresql/data", "/var/run/postgresql", "/tmp");
    }

    @Test
    void takesItsSizeFromSpecBackendDatabaseResources() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();
        run.getSpec()
                .getBackend()
                .getDatabase()
                .setResources(new ResourcesSpec().withCpu("500m").withMemory("512Mi"));

        Container container = database.deployment(run)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst();

        assertThat(container.getResources().getLimits().get("cpu").toString()).isEqualTo("500m");
        assertThat(container.getResources().getRequests().get("memory").toString())
                .isEqualTo("512Mi");
    }

    @Test
    void everyRunGetsAPasswordOfItsOwn() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Secret first = database.secret(run);
        Secret second = database.secret(run);

        assertThat(first.getStringData()).containsEntry("username", "stackbench");
        assertThat(first.getStringData().get("password"))
                .hasSize(36)
                .isNotEqualTo(second.getStringData().get("password"));
        assertThat(first.getMetadata().getName()).isEqualTo("webflux-r2dbc-db");
    }

    @Test
    void readsTheServerVersionFromPostgresqlsStartLine() {
        String log = """
                postgres-entrypoint: creating the database cluster in /var/lib/postgresql/data/pgdata
                2026-11-23 09:30:01.123 UTC [1] LOG:  starting PostgreSQL 15.14 (Debian 15.14-0+deb12u1) on \
                x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit
                2026-11-23 09:30:01.124 UTC [1] LOG:  listening on IPv4 address "0.0.0.0", port 5432
                """;

        assertThat(RunDatabase.announcedVersion(log)).contains("15.14 (Debian 15.14-0+deb12u1)");
        assertThat(RunDatabase.announcedVersion("initdb: warning")).isEmpty();
        assertThat(RunDatabase.announcedVersion(null)).isEmpty();
    }
}
