package dev.stackbench.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.testcluster.CommandResult;
import dev.stackbench.testcluster.ProjectTools;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way the repository tells users to install the chart works: the helm values of each skaffold.yaml release,
 * without a profile and with each profile, and of each {@code helm install/upgrade/template} command in the
 * guides' code blocks, read from those files so that a change to them is tested as it is. Each set of values must
 * pass the chart's values.schema.json (helm template enforces it) and render manifests kubeconform accepts.
 *
 * <p>Every dependency is its real chart ({@link OfflineChart}), so {@code k6.installOperator=true},
 * {@code postgresql.enabled=true} and {@code kube-prometheus-stack.enabled=true} render them, and the values below
 * their keys meet their own schemas too (k6-operator and Bitnami PostgreSQL carry one).
 */
@Order(7)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShippedHelmValuesIT {

    private static final Path ROOT = ProjectTools.repositoryRoot();
    /** The guides with install commands; each must keep showing at least one. */
    private static final List<String> GUIDES = List.of("README.md", "docs/cluster.md");

    private static final String KUBE_VERSION = "1.36.0";

    private OfflineChart chart;
    private Kubeconform kubeconform;

    @BeforeAll
    void prepare() {
        chart = OfflineChart.create();
        kubeconform = Kubeconform.create(List.of(chart.prometheusOperatorCrds()));
    }

    @AfterAll
    void cleanUp() {
        if (chart != null) {
            chart.close();
        }
        if (kubeconform != null) {
            kubeconform.close();
        }
    }

    static Stream<HelmValues> skaffoldReleases() {
        return SkaffoldReleases.read(ROOT).stream();
    }

    static Stream<DocumentedHelmCommands.Command> documentedCommands() {
        return GUIDES.stream().flatMap(guide -> DocumentedHelmCommands.read(ROOT, guide).stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("skaffoldReleases")
    void skaffoldDeploysTheImagesItBuiltWithValuesTheChartAccepts(HelmValues values) {
        Deployment deployment = operatorDeployment(render(values));

        Container operator =
                deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(operator.getImage())
                .as("%s: the operator runs the image skaffold built", values.origin())
                .isEqualTo(SkaffoldReleases.SAMPLE_REGISTRY + "/stackbench/operator:" + SkaffoldReleases.SAMPLE_TAG);
        assertThat(operator.getEnv())
                .as("%s: the operator deploys targets with the tag skaffold built", values.origin())
                .extracting(EnvVar::getName, EnvVar::getValue)
                .contains(org.assertj.core.groups.Tuple.tuple("STACKBENCH_IMAGE_TAG", SkaffoldReleases.SAMPLE_TAG));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("documentedCommands")
    void documentedInstallCommandsUseValuesTheChartAccepts(DocumentedHelmCommands.Command command) {
        render(DocumentedHelmCommands.values(command, ROOT));
    }

    @Test
    void everySkaffoldProfileAndEveryGuideIsCovered() throws IOException {
        List<String> origins =
                SkaffoldReleases.read(ROOT).stream().map(HelmValues::origin).toList();
        assertThat(origins).anyMatch(origin -> origin.contains("no profile"));
        for (String profile : SkaffoldReleases.profileNames(Files.readString(ROOT.resolve("skaffold.yaml")))) {
            assertThat(origins)
                    .as("releases rendered for skaffold profile %s", profile)
                    .anyMatch(origin -> origin.contains("profile " + profile + ","));
        }
        for (String guide : GUIDES) {
            assertThat(DocumentedHelmCommands.read(ROOT, guide))
                    .as(
                            "helm install commands in %s's code blocks (if it no longer shows one, drop it from GUIDES)",
                            guide)
                    .isNotEmpty();
        }
    }

    @Test
    void aProfilePatchingInAValueTheChartRefusesFailsNamingTheProfileAndHelmsMessage() {
        String skaffold = """
                apiVersion: skaffold/v4beta14
                kind: Config
                build:
                  artifacts:
                    - image: stackbench/operator
                    - image: stackbench/mvc-app
                deploy:
                  helm:
                    releases:
                      - name: stackbench
                        chartPath: charts/stackbench
                        namespace: stackbench
                        setValueTemplates:
                          image.repository: "{{.IMAGE_REPO_stackbench_operator}}"
                          image.tag: "{{.IMAGE_TAG_stackbench_operator}}"
                          targetImages.tag: "{{.IMAGE_TAG_stackbench_mvc_app}}"
                        setValues:
                          postgresql.enabled: true
                profiles:
                  - name: kind
                    patches:
                      - op: add
                        path: /deploy/helm/releases/0/setValues/targetImages.pullPolicy
                        value: IfNotPresent
                """;
        List<HelmValues> releases = SkaffoldReleases.parse(skaffold, ROOT, "skaffold.yaml");
        assertThat(releases).extracting(HelmValues::origin).hasSize(2);

        render(releases.get(0));
        assertThatThrownBy(() -> render(releases.get(1)))
                .hasMessageContaining("skaffold.yaml, profile kind, release stackbench")
                .hasMessageContaining("additional properties 'pullPolicy' not allowed");
    }

    @Test
    void aGuideCommandWithAValueTheChartRefusesFailsNamingItsLineAndHelmsMessage() {
        String guide = """
                Install:

                ```bash
                helm install stackbench charts/stackbench --namespace stackbench \\
                  --set watch.namespace=team-a
                ```
                """;
        List<DocumentedHelmCommands.Command> commands = DocumentedHelmCommands.parse(guide, "docs/guide.md");
        assertThat(commands).hasSize(1);

        assertThatThrownBy(() -> render(DocumentedHelmCommands.values(commands.get(0), ROOT)))
                .hasMessageContaining("docs/guide.md:4")
                .hasMessageContaining("additional properties 'namespace' not allowed");
    }

    /** Renders the chart with the values, failing with where they come from and what helm or kubeconform said. */
    private Manifests render(HelmValues values) {
        List<String> arguments = new ArrayList<>(List.of(
                "template",
                values.release(),
                "chart",
                "--namespace",
                values.namespace(),
                "--kube-version",
                KUBE_VERSION));
        arguments.addAll(values.arguments());
        CommandResult rendered = chart.helm(arguments);
        if (!rendered.succeeded()) {
            throw new AssertionError(values.origin() + ": the chart refuses these values, so installing it this way"
                    + " fails. Fix the values there, or the chart if they are right (values.yaml and"
                    + " values.schema.json).\nvalues: " + String.join(" ", values.arguments())
                    + "\nhelm says: " + rendered.stderr().strip());
        }
        Manifests manifests = Manifests.parse(rendered.stdout());
        CommandResult validation = kubeconform.validate(manifests.yaml());
        if (!validation.succeeded()) {
            throw new AssertionError(values.origin() + ": with these values the chart renders objects the API server"
                    + " would refuse; fix the chart's templates.\nvalues: " + String.join(" ", values.arguments())
                    + "\n" + validation.describe());
        }
        return manifests;
    }

    private static Deployment operatorDeployment(Manifests manifests) {
        return manifests.ofKind("Deployment").stream()
                .filter(d -> "operator"
                        .equals(d.path("metadata")
                                .path("labels")
                                .path("app.kubernetes.io/component")
                                .asText()))
                .map(d -> Manifests.as(d, Deployment.class))
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        "no operator Deployment in the rendered chart; objects: " + manifests.kinds()));
    }
}
