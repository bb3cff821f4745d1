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
import org.junit.jupiter.api.Order;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The image tarballs this build made (profile `images`, on by default in hack/test.sh): the four Jib built, the
 * three k6-operator runs and the three of a real-node test cluster. Each is a `docker load` / `kind load
 * image-archive` tarball whose layers are all present and readable, runs as a non-root user, starts the right
 * program (a Java main class, the k6-operator controller, curl, k6, catatonit, the PostgreSQL entrypoint), and
 * carries none of the build machine's credentials. Sizes are written to operator/target/image-sizes.txt.
 */
@Order(8)
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
        requireImagesBuilt();
        if (!relativeTar.startsWith("operator/")) {
            // A build of some modules only (-pl operator) builds no target images; the full build builds all.
            assumeTrue(
                    Files.exists(ProjectTools.repositoryRoot().resolve(relativeTar)),
                    relativeTar + " was not built by this build (only the full build, "
                            + "hack/test.sh, or hack/images.sh builds every image)");
        }
        Image image = inspect(relativeTar, repository);

        List<String> entrypoint = texts(image.config().path("Entrypoint"));
        assertThat(entrypoint).first().isEqualTo("java");
        if (mainClass != null) {
            assertThat(entrypoint).last().isEqualTo(mainClass);
            assertThat(texts(image.config().path("Cmd"))).isEmpty();
        }
        List<String> env = texts(image.config().path("Env"));
        assertThat(env).anyMatch(e -> e.startsWith("PATH=") && e.contains("java"));
        if (servesOnAllInterfaces) {
            assertThat(env).contains("BIND_ADDRESS=0.0.0.0");
        }
        if (mainClass == null) {
            // An app image starts from jars only, with the AOT cache its build made (hack/image-base/aot-cache.sh).
            assertThat(entrypoint).containsSubsequence("-cp", "@/app/aot/classpath");
            assertThat(env).contains("JDK_JAVA_OPTIONS=-XX:AOTCache=/app/aot/app.aot");
            assertThat(image.files().stream().map(LayerFile::path))
                    .as("the start files of %s", relativeTar)
                    .contains("app/aot/app.aot", "app/aot/app.jar", "app/aot/classpath");
        }
        if (mainClass != null) {
            // The operator module cannot see local mode; its image must not carry it either.
            List<String> localModeFiles = image.files().stream()
                    .filter(file -> LOCAL_MODE_PATH.matcher(file.path()).find())
                    .map(LayerFile::path)
                    .toList();
            assertThat(localModeFiles)
                    .as("local-mode files inside %s", relativeTar)
                    .isEmpty();
        }
    }

    /**
     * The images k6-operator runs, built offline by hack/image-base/k6-images.sh next to operator.tar: the
     * controller, the starter (k6-operator runs it as {@code sh -c "curl ..."}) and the k6 runner, whose
     * initializer script also needs sh, mkdir, dirname, cat and grep. Each command is an executable file.
     */
    @ParameterizedTest(name = "{1}")
    @CsvSource({
        "operator/target/images/k6-operator.tar, stackbench/k6-operator, /manager, manager",
        "operator/target/images/k6-starter.tar, stackbench/k6-starter, /usr/bin/curl, usr/bin/curl bin/sh",
        "operator/target/images/k6.tar, stackbench/k6, /usr/bin/k6,"
                + " usr/bin/k6 bin/sh bin/mkdir usr/bin/dirname bin/cat bin/grep"
    })
    void k6OperatorImageTarIsLoadableNonRootAndClean(
            String relativeTar, String repository, String entrypoint, String commands) throws IOException {
        requireImagesBuilt();
        Image image = inspect(relativeTar, repository);

        assertThat(texts(image.config().path("Entrypoint"))).containsExactly(entrypoint);
        assertExecutables(image, relativeTar, commands);
        if (repository.equals("stackbench/k6-starter")) {
            // Debian's curl is linked against libcurl: the package's libraries came with it.
            assertThat(image.files()).as("libcurl in %s", relativeTar).anyMatch(file -> file.path()
                    .matches(".*/libcurl\\.so\\.4.*"));
        }
        assertThat(texts(image.config().path("Env"))).anyMatch(e -> e.startsWith("PATH=") && e.contains("/usr/bin"));
    }

    /**
     * The images a real-node test cluster runs besides stackbench's, built offline from Debian packages by
     * hack/image-base/node-images.sh: the pod sandbox (catatonit in pause mode, as user 65535 like the upstream
     * pause image), PostgreSQL behind its own entrypoint (dash, the C.UTF-8 locale; neither Debian's Perl
     * wrappers nor LLVM; stopped with SIGINT), and static busybox for the chart's test pod, with a wget wrapper that takes -T. No
     * entrypoint for busybox: the test pod names its command. hack/image-base/test-node-images.sh runs them.
     */
    @ParameterizedTest(name = "{1}")
    @CsvSource({
        "operator/target/images/pause.tar, stackbench/pause, /usr/bin/catatonit -P, 65535:65535, usr/bin/catatonit",
        "operator/target/images/postgres.tar, stackbench/postgres, /usr/local/bin/postgres-entrypoint, 65532:65532,"
                + " usr/local/bin/postgres-entrypoint bin/sh usr/lib/postgresql/15/bin/postgres"
                + " usr/lib/postgresql/15/bin/initdb usr/lib/postgresql/15/bin/pg_ctl usr/lib/postgresql/15/bin/psql"
                + " usr/lib/postgresql/15/bin/pg_isready",
        "operator/target/images/busybox.tar, stackbench/busybox, , 65532:65532,"
                + " bin/busybox bin/sh usr/bin/wget usr/local/bin/wget"
    })
    void nodeImageTarIsLoadableNonRootAndClean(
            String relativeTar, String repository, String entrypoint, String user, String commands) throws IOException {
        requireImagesBuilt();
        Image image = inspect(relativeTar, repository);

        assertThat(texts(image.config().path("Entrypoint")))
                .containsExactlyElementsOf(entrypoint == null ? List.of() : List.of(entrypoint.split(" ")));
        assertThat(image.config().path("User").asText()).isEqualTo(user);
        assertExecutables(image, relativeTar, commands);
        if (repository.equals("stackbench/postgres")) {
            assertThat(texts(image.config().path("Env"))).contains("PGDATA=/var/lib/postgresql/data", "LANG=C.UTF-8");
            // Fast shutdown: a deleted run database ends the target's sessions instead of waiting for them.
            assertThat(image.config().path("StopSignal").asText()).isEqualTo("SIGINT");
            assertThat(image.file("usr/lib/locale/C.utf8/LC_CTYPE"))
                    .as("C.UTF-8 locale")
                    .isNotNull();
            assertThat(image.files()).as("Perl or LLVM in %s", relativeTar).noneMatch(file -> file.path()
                    .matches("usr/bin/perl.*|.*/libLLVM.*|.*/llvmjit.*"));
        }
    }

    /**
     * The images of the chart's kube-prometheus-stack, built offline by hack/image-base/prometheus-images.sh from
     * the binaries hack/setup.sh built from source: each binary where the upstream image has it (the operator
     * names /bin/prometheus-config-reloader as the command of the containers it adds), user 65532, the licence,
     * and for Prometheus its data directory as the working directory.
     */
    @ParameterizedTest(name = "{1}")
    @CsvSource({
        "operator/target/images/prometheus-operator.tar, stackbench/prometheus-operator, /bin/operator",
        "operator/target/images/prometheus-config-reloader.tar, stackbench/prometheus-config-reloader,"
                + " /bin/prometheus-config-reloader",
        "operator/target/images/prometheus.tar, stackbench/prometheus, /bin/prometheus"
    })
    void prometheusImageTarIsLoadableNonRootAndClean(String relativeTar, String repository, String entrypoint)
            throws IOException {
        requireImagesBuilt();
        Image image = inspect(relativeTar, repository);

        assertThat(texts(image.config().path("Entrypoint"))).containsExactly(entrypoint);
        assertThat(image.config().path("User").asText()).isEqualTo("65532:65532");
        assertExecutables(image, relativeTar, entrypoint.substring(1));
        assertThat(image.files()).as("the licence in %s", relativeTar).anyMatch(file -> file.path()
                .matches("usr/share/doc/prometheus.*/LICENSE.*"));
        if (repository.equals("stackbench/prometheus")) {
            assertThat(image.config().path("WorkingDir").asText()).isEqualTo("/prometheus");
            // GNU tar lists a directory with a trailing slash.
            assertThat(image.file("prometheus/")).as("/prometheus").isNotNull();
            assertThat(image.file("prometheus/").mode()).startsWith("d");
        }
    }

    private static void requireImagesBuilt() {
        assumeTrue(
                Boolean.getBoolean("stackbench.images.built"),
                "images are built only with the images profile "
                        + "(hack/test.sh, or mvn -Pimages); hack/images.sh builds them on their own");
    }

    /** One file of an image layer as GNU tar -tv lists it. */
    record LayerFile(String mode, String path) {}

    record Image(JsonNode config, List<LayerFile> files) {
        LayerFile file(String path) {
            return files.stream()
                    .filter(f -> f.path().equals(path) || f.path().startsWith(path + " -> "))
                    .findFirst()
                    .orElse(null);
        }
    }

    /**
     * The checks every image passes: a loadable tarball (manifest.json, every layer present and readable), a
     * non-root user and no credential files. Records the image's size.
     */
    private static Image inspect(String relativeTar, String repository) throws IOException {
        Path tar = ProjectTools.repositoryRoot().resolve(relativeTar);
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

        List<String> layers = texts(manifest.path("Layers"));
        assertThat(layers).isNotEmpty();
        List<String> leaks = new ArrayList<>();
        List<LayerFile> files = new ArrayList<>();
        long uncompressed = 0;
        for (String layer : layers) {
            assertThat(entries).as("layer %s listed in manifest.json", layer).contains(layer);
            // Listing every file proves the layer reads (Jib's are gzipped, the Debian-based ones plain tar:
            // gzip -dcf passes those through); GNU tar -tv prints "mode owner size date time name".
            for (String file : lines(shell("tar -xOf \"$0\" \"$1\" | gzip -dcf | tar -tv", tar.toString(), layer))) {
                String[] fields = file.trim().split("\\s+", 6);
                uncompressed += Long.parseLong(fields[2]);
                String path = fields[5].startsWith("./") ? fields[5].substring(2) : fields[5];
                files.add(new LayerFile(fields[0], path));
                if (SECRET_PATH.matcher(path.toLowerCase(Locale.ROOT)).find()) {
                    leaks.add(layer + ": " + path);
                }
            }
        }
        assertThat(leaks).as("credential files inside %s", tar).isEmpty();

        recordSize(repository, Files.size(tar), uncompressed, layers.size());
        return new Image(config, files);
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

    /** Each of the space-separated paths is in the image and executable. */
    private static void assertExecutables(Image image, String relativeTar, String commands) {
        for (String command : commands.split(" ")) {
            LayerFile file = image.file(command);
            assertThat(file).as("%s in %s", command, relativeTar).isNotNull();
            // A symbolic link (bin/sh -> dash) points at an executable the same listing checks.
            assertThat(file.mode())
                    .as("%s in %s is executable", command, relativeTar)
                    .matches("[-l]rwx.*");
        }
    }
}
