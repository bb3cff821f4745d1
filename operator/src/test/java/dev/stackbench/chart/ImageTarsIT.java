package dev.stackbench.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.stackbench.testcluster.ProjectTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The four image tarballs Jib built in this build (profile `images`, on by default in hack/test.sh): each is a
 * `docker load` / `kind load image-archive` tarball whose layers are all present and readable, runs as a
 * non-root user, starts the right Java main class, and carries none of the build machine's credentials. Sizes
 * are written to operator/target/image-sizes.txt.
 */
class ImageTarsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Files that would leak the build machine's credentials if they ended up in an image. */
    private static final Pattern SECRET_PATH = Pattern.compile(
            "(^|/)(\\.m2/settings(-security)?\\.xml|\\.ssh/|\\.docker/config\\.json|\\.git-credentials|\\.netrc"
                    + "|\\.kube/config|\\.aws/credentials|\\.gnupg/|etc/shadow)");

    /** Jars and classes of local mode: the HTML report's plotting library, LocalPostgres, the local runner. */
    private static final Pattern LOCAL_MODE_PATH =
            Pattern.compile("(^|/)(xchart-[^/]*\\.jar|local-postgres-[^/]*\\.jar|stackbench-local[^/]*\\.jar)$"
                    + "|/dev/stackbench/(local|report|cli|postgres)/");

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "operator/target/images/operator.tar, stackbench/operator, dev.stackbench.operator.OperatorCommand, false",
        "targets/mvc-app/target/images/mvc-app.tar, stackbench/mvc-app, , true",
        "targets/webflux-app/target/images/webflux-app.tar, stackbench/webflux-app, , true",
        "targets/delay-service/target/images/delay-service.tar, stackbench/delay-service, , true"
    })
    void imageTarIsLoadableNonRootAndClean(
            String relativeTar, String repository, String mainClass, boolean servesOnAllInterfaces) throws IOException {
        assumeTrue(
                Boolean.getBoolean("stackbench.images.built"),
                "images are built only with the images profile "
                        + "(hack/test.sh, or mvn -Pimages); hack/images.sh builds them on their own");
        Path tar = ProjectTools.repositoryRoot().resolve(relativeTar);
        if (!relativeTar.startsWith("operator/")) {
            // A build of some modules only (-pl operator) builds no target images; the full build builds all.
            assumeTrue(
                    Files.exists(tar),
                    relativeTar + " was not built by this build (only the full build, "
                            + "hack/test.sh, or hack/images.sh builds every image)");
        }
        assertThat(tar).as("%s was not built: run hack/images.sh", tar).exists();

        List<String> entries = lines(tar("-tf", tar.toString()));
        assertThat(entries).contains("manifest.json");
        JsonNode manifest =
                JSON.readTree(tar("-xOf", tar.toString(), "manifest.json")).get(0);
        assertThat(manifest.path("RepoTags").get(0).asText()).startsWith(repository + ":");
        JsonNode config = JSON.readTree(
                        tar("-xOf", tar.toString(), manifest.path("Config").asText()))
                .path("config");
        String user = config.path("User").asText();
        assertThat(user).as("image user").isNotEmpty().doesNotStartWith("0").isNotEqualTo("root");
        List<String> entrypoint = texts(config.path("Entrypoint"));
        assertThat(entrypoint).first().isEqualTo("java");
        if (mainClass != null) {
            assertThat(entrypoint).last().isEqualTo(mainClass);
            assertThat(texts(config.path("Cmd"))).isEmpty();
        }
        List<String> env = texts(config.path("Env"));
        assertThat(env).anyMatch(e -> e.startsWith("PATH=") && e.contains("java"));
        if (servesOnAllInterfaces) {
            assertThat(env).contains("BIND_ADDRESS=0.0.0.0");
        }

        List<String> layers = texts(manifest.path("Layers"));
        assertThat(layers).isNotEmpty();
        List<String> leaks = new ArrayList<>();
        List<String> localModeFiles = new ArrayList<>();
        long uncompressed = 0;
        for (String layer : layers) {
            assertThat(entries).as("layer %s listed in manifest.json", layer).contains(layer);
            // Listing every file proves the layer decompresses; GNU tar -tv prints "mode owner size date time name".
            for (String file : lines(shell("tar -xOf \"$0\" \"$1\" | tar -tvz", tar.toString(), layer))) {
                String[] fields = file.trim().split("\\s+", 6);
                uncompressed += Long.parseLong(fields[2]);
                if (SECRET_PATH.matcher(fields[5].toLowerCase(Locale.ROOT)).find()) {
                    leaks.add(layer + ": " + fields[5]);
                }
                if (LOCAL_MODE_PATH.matcher(fields[5]).find()) {
                    localModeFiles.add(layer + ": " + fields[5]);
                }
            }
        }
        assertThat(leaks).as("credential files inside %s", tar).isEmpty();
        if (mainClass != null) {
            // The operator module cannot see local mode; its image must not carry it either.
            assertThat(localModeFiles).as("local-mode files inside %s", tar).isEmpty();
        }

        recordSize(repository, Files.size(tar), uncompressed, layers.size());
    }

    private static String tar(String... arguments) {
        List<String> command = new ArrayList<>(List.of("tar"));
        command.addAll(List.of(arguments));
        return Commands.run(command, ProjectTools.repositoryRoot(), java.time.Duration.ofMinutes(2))
                .requireSuccess()
                .stdout();
    }

    private static String shell(String script, String... arguments) {
        List<String> command = new ArrayList<>(List.of("bash", "-o", "pipefail", "-c", script));
        command.addAll(List.of(arguments));
        return Commands.run(command, ProjectTools.repositoryRoot(), java.time.Duration.ofMinutes(2))
                .requireSuccess()
                .stdout();
    }

    private static List<String> lines(String text) {
        return text.lines().filter(line -> !line.isBlank()).toList();
    }

    private static synchronized void recordSize(String repository, long tarBytes, long uncompressedBytes, int layers)
            throws IOException {
        Path report = ProjectTools.repositoryRoot().resolve("operator/target/image-sizes.txt");
        String line = String.format(
                Locale.ROOT,
                "%-26s tar %6.1f MiB, unpacked %6.1f MiB, %d layers%n",
                repository,
                tarBytes / 1048576.0,
                uncompressedBytes / 1048576.0,
                layers);
        Files.writeString(
                report, line, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        System.out.print("image size: " + line);
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }
}
