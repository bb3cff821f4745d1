package dev.stackbench.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How skaffold.yaml and the guides' commands become helm values, so ShippedHelmValuesIT checks the right ones. */
class ShippedHelmValuesParsingTest {

    private static final Path ROOT = locateRoot();

    @Test
    void guideCommandsAreSplitAsBashSplitsThem() {
        String guide = """
                Text with `helm install x charts/stackbench` inline is not a command.

                ```bash
                helm dependency build charts/stackbench && helm install sb charts/stackbench -n bench \\
                  --set 'a=b c' --set "d=\\"e\\"" --set x\\.y=1 --wait # --set z=1
                kubectl get pods
                helm template sb charts/stackbench --set-string tag=1 > out.yaml 2>&1; echo done
                ```

                ```
                NAME   IT'S OUTPUT
                ```
                """;

        List<DocumentedHelmCommands.Command> commands = DocumentedHelmCommands.parse(guide, "guide.md");

        assertThat(commands)
                .extracting(c -> c.origin().substring(0, c.origin().indexOf(' ')))
                .containsExactly("guide.md:4", "guide.md:7");
        HelmValues install = DocumentedHelmCommands.values(commands.get(0), ROOT);
        assertThat(install.release()).isEqualTo("sb");
        assertThat(install.namespace()).isEqualTo("bench");
        assertThat(install.arguments()).containsExactly("--set", "a=b c", "--set", "d=\"e\"", "--set", "x.y=1");
        HelmValues template = DocumentedHelmCommands.values(commands.get(1), ROOT);
        assertThat(template.namespace()).isEqualTo("default");
        assertThat(template.arguments()).containsExactly("--set-string", "tag=1");
    }

    @Test
    void unquotedBracesReachHelmAsTwoWordsAndAreReportedAsSuch() {
        List<DocumentedHelmCommands.Command> unquoted = DocumentedHelmCommands.parse(
                "```\nhelm install sb charts/stackbench --set watch.namespaces={a,b}\n```\n", "guide.md");
        assertThat(unquoted.get(0).words()).endsWith("watch.namespaces=a", "watch.namespaces=b");
        assertThatThrownBy(() -> DocumentedHelmCommands.values(unquoted.get(0), ROOT))
                .hasMessageContaining("guide.md:2")
                .hasMessageContaining("--set 'watch.namespaces={a,b}'");

        List<DocumentedHelmCommands.Command> quoted = DocumentedHelmCommands.parse(
                "```\nhelm install sb charts/stackbench --set 'watch.namespaces={a,b}'\n```\n", "guide.md");
        assertThat(DocumentedHelmCommands.values(quoted.get(0), ROOT).arguments())
                .containsExactly("--set", "watch.namespaces={a,b}");
    }

    @Test
    void valuesFilesMustExistAndOtherChartsAreNotMistakenForThisOne() {
        var missingFile = DocumentedHelmCommands.parse(
                "```\nhelm upgrade --install sb charts/stackbench -f examples/nope.yaml\n```\n", "guide.md");
        assertThatThrownBy(() -> DocumentedHelmCommands.values(missingFile.get(0), ROOT))
                .hasMessageContaining("guide.md:2")
                .hasMessageContaining("examples/nope.yaml");

        var otherChart =
                DocumentedHelmCommands.parse("```\nhelm install k6 grafana/k6-operator --set a=b\n```\n", "guide.md");
        assertThatThrownBy(() -> DocumentedHelmCommands.values(otherChart.get(0), ROOT))
                .hasMessageContaining("grafana/k6-operator");
    }

    @Test
    void skaffoldProfilesAreLaidOverTheConfigThenPatched() {
        String skaffold = """
                apiVersion: skaffold/v4beta14
                kind: Config
                build:
                  artifacts:
                    - image: stackbench/operator
                deploy:
                  helm:
                    releases:
                      - name: sb
                        chartPath: charts/stackbench
                        setValueTemplates:
                          image.tag: "{{.IMAGE_TAG_stackbench_operator}}"
                          image.repository: "{{ .IMAGE_REPO_stackbench_operator }}"
                        setValues:
                          postgresql:
                            enabled: true
                          crds.keep: false
                        valuesFiles: [examples/kind/cluster.yaml]
                profiles:
                  - name: patched
                    patches:
                      - op: add
                        path: /deploy/helm/releases/0/setValues/image.pullPolicy
                        value: Never
                      - op: replace
                        path: /deploy/helm/releases/0/setValues/crds.keep
                        value: true
                      - op: remove
                        path: /deploy/helm/releases/0/valuesFiles
                  - name: overlaid
                    deploy:
                      helm:
                        releases:
                          - name: other
                            chartPath: ./charts/stackbench/
                            namespace: elsewhere
                """;

        List<HelmValues> releases = SkaffoldReleases.parse(skaffold, ROOT, "skaffold.yaml");

        assertThat(releases)
                .extracting(HelmValues::origin)
                .containsExactly(
                        "skaffold.yaml, no profile, release sb",
                        "skaffold.yaml, profile patched, release sb",
                        "skaffold.yaml, profile overlaid, release other");
        String repository = SkaffoldReleases.SAMPLE_REGISTRY + "/stackbench/operator";
        assertThat(releases.get(0).arguments())
                .containsExactly(
                        "--set",
                        "crds.keep=false",
                        "--set",
                        "postgresql.enabled=true",
                        "--set",
                        "image.repository=" + repository,
                        "--set",
                        "image.tag=" + SkaffoldReleases.SAMPLE_TAG,
                        "-f",
                        ROOT.resolve("examples/kind/cluster.yaml").toString());
        assertThat(releases.get(1).arguments())
                .containsExactly(
                        "--set", "crds.keep=true",
                        "--set", "image.pullPolicy=Never",
                        "--set", "postgresql.enabled=true",
                        "--set", "image.repository=" + repository,
                        "--set", "image.tag=" + SkaffoldReleases.SAMPLE_TAG);
        assertThat(releases.get(2).namespace()).isEqualTo("elsewhere");
        assertThat(releases.get(2).arguments()).isEmpty();
    }

    @Test
    void skaffoldTemplatesNamingNoBuiltImageAndUnknownPatchOpsAreReported() {
        String unknownField = """
                build: {artifacts: [{image: stackbench/operator}]}
                deploy: {helm: {releases: [{name: sb, chartPath: charts/stackbench,
                  setValueTemplates: {image.tag: "{{.IMAGE_TAG_stackbench_operatr}}"}}]}}
                """;
        assertThatThrownBy(() -> SkaffoldReleases.parse(unknownField, ROOT, "skaffold.yaml"))
                .hasMessageContaining("release sb image.tag")
                .hasMessageContaining("IMAGE_TAG_stackbench_operatr")
                .hasMessageContaining("<no value>");

        String moveOp = """
                deploy: {helm: {releases: [{name: sb, chartPath: charts/stackbench}]}}
                profiles: [{name: odd, patches: [{op: move, from: /a, path: /deploy/b}]}]
                """;
        assertThatThrownBy(() -> SkaffoldReleases.parse(moveOp, ROOT, "skaffold.yaml"))
                .hasMessageContaining("profile odd")
                .hasMessageContaining("'move'");
    }

    private static Path locateRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (java.nio.file.Files.isDirectory(dir.resolve("charts/stackbench"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository (charts/stackbench) above "
                + Path.of("").toAbsolutePath());
    }
}
