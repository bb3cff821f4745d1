package dev.stackbench.operator.objects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.operator.ExampleRuns;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DelayServiceDeploymentTest {

    @Test
    void runsTheDelayServiceOnTheBackendPoolBehindItsService() {
        BenchmarkRun run = ExampleRuns.webfluxR2dbc();

        Deployment deployment =
                new DelayServiceDeployment(ExampleRuns.catalogue(), ExampleRuns.settings()).desired(run);
        Service service = new DelayServiceService().desired(run);

        Container container =
                deployment.getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertThat(container.getImage()).isEqualTo("stackbench/delay-service:1.2.3");
        assertThat(deployment.getSpec().getTemplate().getSpec().getNodeSelector())
                .isEqualTo(Map.of("stackbench.dev/pool", "backend"));
        assertThat(container.getResources().getRequests())
                .isEqualTo(container.getResources().getLimits());
        assertThat(container.getEnv()).anySatisfy(env -> {
            assertThat(env.getName()).isEqualTo("PORT");
            assertThat(env.getValue()).isEqualTo("8090");
        });
        assertThat(service.getMetadata().getName()).isEqualTo("webflux-r2dbc-delay");
        assertThat(service.getSpec().getSelector())
                .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
        assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(service.getSpec().getSelector());
        assertThat(service.getSpec().getPorts())
                .extracting(port -> port.getPort())
                .containsExactly(8090, 8091);
        assertThat(DelayServiceService.url(run)).isEqualTo("http://webflux-r2dbc-delay.bench.svc:8090");
        HardenedPods.assertHardened(deployment.getSpec().getTemplate().getSpec(), "/tmp");
    }
}
