package dev.stackbench.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real, throwaway PostgreSQL server started from the distribution's binaries (Debian's
 * {@code /usr/lib/postgresql/<version>/bin}), listening on 127.0.0.1 only, with a role and a database named
 * {@code stackbench} (password {@code stackbench}, password authentication over TCP).
 *
 * <p>PostgreSQL refuses to run as root, so when the JVM runs as root the server runs as {@code nobody} in a
 * temporary directory that user owns. {@link #close()} stops the server and deletes that directory. A shutdown hook
 * closes it when the JVM exits normally, and a small watchdog process stops the server and deletes the directory if
 * the JVM is killed, so no server outlives the process that started it.
 *
 * <pre>{@code
 * try (LocalPostgres pg = LocalPostgres.builder().cpus("1").start()) {
 *     connect(pg.jdbcUrl(), pg.user(), pg.password());
 * }
 * }</pre>
 */
public final class LocalPostgres implements AutoCloseable {

    public static final String HOST = "127.0.0.1";
    public static final String DATABASE = "stackbench";
    public static final String USER = "stackbench";
    public static final String PASSWORD = "stackbench";
    /** Environment variable naming the directory with {@code postgres}, {@code initdb}, {@code pg_ctl}, ... */
    public static final String BIN_DIR_ENV = "STACKBENCH_PG_BIN";

    private static final int NOBODY = 65534;
    private static final String SUPERUSER = "postgres";
    private static final int PORT_ATTEMPTS = 3;

    private final Path binDir;
    private final Path baseDir;
    private final Path dataDir;
    private final Path logFile;
    private final boolean keepDataDir;
    private final boolean runAsNobody;
    private final Process watchdog;
    private final Thread shutdownHook;
    private Process server;
    private int port;
    private String serverVersion;
    private boolean closed;

    private LocalPostgres(Builder builder) throws IOException {
        this.binDir = builder.binDir != null ? checkedBinDir(builder.binDir, "binDir") : findBinDir();
        this.keepDataDir = builder.keepDataDir;
        this.runAsNobody = currentUid() == 0;
        Path parent = builder.parentDir != null ? builder.parentDir : Path.of(System.getProperty("java.io.tmpdir"));
        this.baseDir = Files.createTempDirectory(parent, "stackbench-pg-");
        if (runAsNobody) {
            Files.setAttribute(baseDir, "unix:uid", NOBODY);
            Files.setAttribute(baseDir, "unix:gid", NOBODY);
        }
        this.dataDir = baseDir.resolve("data");
        this.logFile = baseDir.resolve("postgres.log");
        this.watchdog = startWatchdog();
        this.shutdownHook = new Thread(this::close, "local-postgres-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts a server with the defaults: a free port, 300 connections, no CPU pinning. */
    public static LocalPostgres start() {
        return builder().start();
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    public String database() {
        return DATABASE;
    }

    public String user() {
        return USER;
    }

    public String password() {
        return PASSWORD;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://" + HOST + ":" + port + "/" + DATABASE;
    }

    public String r2dbcUrl() {
        return "r2dbc:postgresql://" + HOST + ":" + port + "/" + DATABASE;
    }

    /** The cluster directory (initdb's {@code -D}); the unix socket lives here too. */
    public Path dataDir() {
        return dataDir;
    }

    /** The server's stdout and stderr, next to the data directory. */
    public Path logFile() {
        return logFile;
    }

    public Path binDir() {
        return binDir;
    }

    /** The server's {@code server_version}, e.g. {@code 15.18 (Debian 15.18-0+deb12u1)}. */
    public String serverVersion() {
        return serverVersion;
    }

    /** The postmaster's process id. */
    public long pid() {
        return server.pid();
    }

    public boolean isRunning() {
        return server != null && server.isAlive();
    }

    /**
     * Stops the server (fast shutdown: open sessions are disconnected), kills it if it does not stop in time, and
     * deletes its directory unless it was built with {@code keepDataDir(true)}. Safe to call more than once.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stopServer();
            if (!keepDataDir) {
                deleteRecursively(baseDir);
            }
        } finally {
            watchdog.destroy();
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // Called from the hook itself: nothing to remove.
            }
        }
    }

    @Override
    public String toString() {
        return "LocalPostgres[" + jdbcUrl() + ", dataDir=" + dataDir + ", version=" + serverVersion + "]";
    }

    private void initialize(Builder builder) throws IOException, InterruptedException {
        run(
                Duration.ofMinutes(2),
                "initdb",
                asServerUser(List.of(
                        bin("initdb"),
                        "-D",
                        dataDir.toString(),
                        "-U",
                        SUPERUSER,
                        "--auth-local=trust",
                        "--auth-host=scram-sha-256",
                        "-E",
                        "UTF8",
                        "--locale=C",
                        "--no-sync",
                        "--no-instructions")));
        for (int attempt = 1; ; attempt++) {
            port = builder.port > 0 ? builder.port : freePort();
            Files.deleteIfExists(logFile);
            server = launchServer(builder);
            try {
                awaitReady(builder.startTimeout);
                break;
            } catch (IllegalStateException e) {
                boolean portTaken = readLog().contains("could not bind");
                if (builder.port > 0 || !portTaken || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
            }
        }
        serverVersion = psql(
                        "postgres",
                        "create role " + USER + " login password '" + PASSWORD + "'",
                        "create database " + DATABASE + " owner " + USER,
                        "show server_version")
                .strip();
        // In the run's own database, so that the statements the applications send can be counted per request.
        query("create extension if not exists pg_stat_statements");
    }

    /**
     * Runs SQL as the superuser in the {@value #DATABASE} database over the unix socket and returns psql's unaligned
     * output (one row a line, columns separated by {@code |}). The superuser's own statements are told apart from the
     * applications' by their role, {@value #USER} for the applications.
     */
    public String query(String sql) {
        try {
            return psql(DATABASE, sql);
        } catch (IOException e) {
            throw new UncheckedIOException("could not run psql against " + this + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while querying " + this, e);
        }
    }

    /** psql as the superuser over the unix socket, stopping at the first failing command. */
    private String psql(String database, String... commands) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                bin("psql"),
                "-h",
                dataDir.toString(),
                "-p",
                String.valueOf(port),
                "-U",
                SUPERUSER,
                "-d",
                database,
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1"));
        for (String sql : commands) {
            command.addAll(List.of("-c", sql));
        }
        return run(Duration.ofSeconds(30), "psql", asServerUser(command));
    }

    private Process launchServer(Builder builder) throws IOException {
        List<String> command = new ArrayList<>();
        if (builder.cpus != null) {
            command.addAll(List.of("taskset", "-c", builder.cpus));
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("listen_addresses", HOST);
        settings.put("port", String.valueOf(port));
        settings.put("unix_socket_directories", dataDir.toString());
        settings.put("max_connections", String.valueOf(builder.maxConnections));
        // A throwaway benchmark database: durability only adds disk latency noise to the measurements.
        settings.put("fsync", "off");
        settings.put("synchronous_commit", "off");
        settings.put("full_page_writes", "off");
        // Counts each statement the applications send (not BEGIN/COMMIT and other utility commands, which JDBC and
        // R2DBC send differently), so a benchmark can check every variant does the same database work per request.
        settings.put("shared_preload_libraries", "pg_stat_statements");
        settings.put("pg_stat_statements.track_utility", "off");
        settings.putAll(builder.settings);
        List<String> postgres = new ArrayList<>(List.of(bin("postgres"), "-D", dataDir.toString()));
        settings.forEach((name, value) -> postgres.addAll(List.of("-c", name + "=" + value)));
        command.addAll(asServerUser(postgres));
        return new ProcessBuilder(command)
                .directory(baseDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
    }

    private void awaitReady(Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        List<String> isReady = List.of(
                bin("pg_isready"), "-q", "-h", HOST, "-p", String.valueOf(port), "-U", SUPERUSER, "-d", "postgres");
        while (true) {
            if (!server.isAlive()) {
                throw new IllegalStateException("PostgreSQL exited with code " + server.exitValue()
                        + " while starting on port " + port + ". Its log (" + logFile + "):\n" + readLog());
            }
            Process probe = new ProcessBuilder(isReady)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0) {
                return;
            }
            probe.destroyForcibly();
            if (Instant.now().isAfter(deadline)) {
                server.destroyForcibly();
                throw new IllegalStateException("PostgreSQL did not accept connections on " + HOST + ":" + port
                        + " within " + timeout.toSeconds() + "s. Its log (" + logFile + "):\n" + readLog());
            }
            Thread.sleep(100);
        }
    }

    private void stopServer() {
        if (server == null || !server.isAlive()) {
            return;
        }
        try {
            Process stop = new ProcessBuilder(asServerUser(
                            List.of(bin("pg_ctl"), "stop", "-D", dataDir.toString(), "-m", "fast", "-w", "-t", "30")))
                    .directory(baseDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            stop.waitFor(35, TimeUnit.SECONDS);
            stop.destroyForcibly();
            if (server.waitFor(5, TimeUnit.SECONDS)) {
                return;
            }
        } catch (IOException e) {
            // pg_ctl could not run: fall through to killing the processes.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.descendants().forEach(ProcessHandle::destroyForcibly);
        server.destroyForcibly();
        try {
            server.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A detached shell that waits for this JVM to die and then stops the server and deletes its directory. It only
     * acts if the JVM ends without {@link #close()} (for example when it is killed); close() ends the watchdog.
     */
    private Process startWatchdog() throws IOException {
        String script = """
                while kill -0 "$1" 2>/dev/null; do sleep 1; done
                pidfile="$2/data/postmaster.pid"
                if [ -f "$pidfile" ]; then
                  pid=$(head -n 1 "$pidfile")
                  kill -INT "$pid" 2>/dev/null
                  i=0
                  while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
                  kill -KILL "$pid" 2>/dev/null
                fi
                [ "$3" = keep ] || rm -rf "$2"
                """;
        // setsid: a Ctrl-C in the terminal must not end the watchdog together with the JVM.
        return new ProcessBuilder(
                        "setsid",
                        "sh",
                        "-c",
                        script,
                        "local-postgres-watchdog",
                        String.valueOf(ProcessHandle.current().pid()),
                        baseDir.toString(),
                        keepDataDir ? "keep" : "delete")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private String run(Duration timeout, String name, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .directory(baseDir.toFile())
                .redirectErrorStream(true)
                .start();
        byte[] output;
        try (var in = process.getInputStream()) {
            output = in.readAllBytes();
        }
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(
                    name + " did not finish within " + timeout.toSeconds() + "s: " + String.join(" ", command));
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IllegalStateException(name + " failed with exit code " + process.exitValue() + " ("
                    + String.join(" ", command) + "). Its output:\n" + text);
        }
        return text;
    }

    /** PostgreSQL refuses to run as root: drop to nobody for every server-side command when we are root. */
    private List<String> asServerUser(List<String> command) {
        if (!runAsNobody) {
            return command;
        }
        List<String> dropped =
                new ArrayList<>(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups"));
        dropped.addAll(command);
        return dropped;
    }

    private String bin(String name) {
        return binDir.resolve(name).toString();
    }

    private String readLog() {
        try {
            return Files.exists(logFile) ? Files.readString(logFile) : "(no log written)";
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    static Path findBinDir() {
        String fromEnv = System.getenv(BIN_DIR_ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return checkedBinDir(Path.of(fromEnv), BIN_DIR_ENV);
        }
        Path root = Path.of("/usr/lib/postgresql");
        Optional<Path> newest = Optional.empty();
        if (Files.isDirectory(root)) {
            try (Stream<Path> versions = Files.list(root)) {
                newest = versions.map(version -> version.resolve("bin"))
                        .filter(LocalPostgres::hasServerBinaries)
                        .max(Comparator.comparing(LocalPostgres::majorVersion));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return newest.orElseThrow(() -> new IllegalStateException("PostgreSQL server binaries not found: "
                + BIN_DIR_ENV + " is not set and no /usr/lib/postgresql/*/bin holds postgres, initdb and pg_ctl. "
                + "Run hack/setup.sh (it installs them with apt-get install postgresql) or set " + BIN_DIR_ENV));
    }

    private static Path checkedBinDir(Path dir, String source) {
        if (!hasServerBinaries(dir)) {
            throw new IllegalStateException(source + "=" + dir + " does not contain the PostgreSQL server binaries "
                    + "(postgres, initdb, pg_ctl, psql, pg_isready): run hack/setup.sh, or point " + source
                    + " at a directory like /usr/lib/postgresql/15/bin");
        }
        return dir;
    }

    private static boolean hasServerBinaries(Path dir) {
        return Stream.of("postgres", "initdb", "pg_ctl", "psql", "pg_isready")
                .allMatch(name -> Files.isExecutable(dir.resolve(name)));
    }

    private static int majorVersion(Path binDir) {
        try {
            return Integer.parseInt(binDir.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static int currentUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException e) {
            return "root".equals(System.getProperty("user.name")) ? 0 : -1;
        }
    }

    /**
     * A port that is free now, below Linux's ephemeral range (32768-60999) so that outgoing connections of other
     * processes cannot take it before the server binds it.
     */
    private static int freePort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(20_000, 32_000);
            try (ServerSocket socket = new ServerSocket(candidate, 1, InetAddress.getByName(HOST))) {
                return socket.getLocalPort();
            } catch (IOException taken) {
                // try another one
            }
        }
        throw new IOException("No free port found on " + HOST + " between 20000 and 32000: pass one with port(...)");
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Could not delete the PostgreSQL directory " + dir + "; remove it by hand (rm -rf " + dir + ")", e);
        }
    }

    /** Options of the server to start. Every option has a default; {@link #start()} starts it. */
    public static final class Builder {

        private int port;
        private int maxConnections = 300;
        private String cpus;
        private boolean keepDataDir;
        private Path binDir;
        private Path parentDir;
        private Duration startTimeout = Duration.ofSeconds(60);
        private final Map<String, String> settings = new LinkedHashMap<>();

        private Builder() {}

        /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be between 0 (pick a free one) and 65535, got " + port);
            }
            this.port = port;
            return this;
        }

        /** PostgreSQL's max_connections; default 300, enough for a pool of 100 per application and headroom. */
        public Builder maxConnections(int maxConnections) {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections must be at least 1, got " + maxConnections);
            }
            this.maxConnections = maxConnections;
            return this;
        }

        /** Pins the server to these CPUs with {@code taskset -c}, e.g. {@code "1"} or {@code "2-3"}; null: unpinned. */
        public Builder cpus(String cpuList) {
            if (cpuList != null && !cpuList.matches("[0-9]+([-,][0-9]+)*")) {
                throw new IllegalArgumentException(
                        "cpus must be a taskset CPU list like 1 or 0,2 or 2-3, got '" + cpuList + "'");
            }
            this.cpus = cpuList;
            return this;
        }

        /** Keeps the data directory (and log) after {@link LocalPostgres#close()}, e.g. to inspect it. */
        public Builder keepDataDir(boolean keep) {
            this.keepDataDir = keep;
            return this;
        }

        /** A server setting passed as {@code -c name=value}; overrides the defaults of this class. */
        public Builder setting(String name, String value) {
            settings.put(name, value);
            return this;
        }

        /** Settings passed as {@code -c name=value}, see {@link #setting(String, String)}. */
        public Builder settings(Map<String, String> extra) {
            settings.putAll(extra);
            return this;
        }

        /** Directory of the server binaries; default {@code $STACKBENCH_PG_BIN}, else newest /usr/lib/postgresql. */
        public Builder binDir(Path dir) {
            this.binDir = dir;
            return this;
        }

        /** Where the temporary directory is created; default java.io.tmpdir. Must be reachable by nobody as root. */
        public Builder parentDir(Path dir) {
            this.parentDir = dir;
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /**
         * Initializes a fresh cluster, starts the server and creates the stackbench role and database. On failure
         * everything started so far is stopped and removed again, and the exception says why.
         */
        public LocalPostgres start() {
            LocalPostgres postgres;
            try {
                postgres = new LocalPostgres(this);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not prepare a directory for PostgreSQL: " + e.getMessage(), e);
            }
            try {
                postgres.initialize(this);
                return postgres;
            } catch (IOException e) {
                postgres.close();
                throw new UncheckedIOException(
                        "Could not start PostgreSQL from " + postgres.binDir + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                postgres.close();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while starting PostgreSQL", e);
            } catch (RuntimeException e) {
                postgres.close();
                throw e;
            }
        }

        @Override
        public String toString() {
            return "LocalPostgres.Builder[port=" + port + ", maxConnections=" + maxConnections + ", cpus=" + cpus
                    + ", settings=" + settings + ", keepDataDir=" + keepDataDir + ", binDir=" + binDir + "]";
        }
    }
}
