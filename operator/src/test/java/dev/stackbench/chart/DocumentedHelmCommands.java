package dev.stackbench.chart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code helm install}, {@code helm upgrade} and {@code helm template} commands in the fenced code blocks of
 * a Markdown guide, split into words the way bash would pass them to helm (quotes, backslashes, line
 * continuations, comments, {@code &&}/{@code ;}/{@code |} and brace expansion: an unquoted
 * {@code --set a={x,y}} reaches helm as two words), and turned into the values they install the chart with.
 */
final class DocumentedHelmCommands {

    /** One documented command: where it is, and the words bash passes to helm. */
    record Command(String origin, List<String> words) {
        @Override
        public String toString() {
            return origin;
        }
    }

    private static final Set<String> SUBCOMMANDS = Set.of("install", "upgrade", "template");
    private static final Set<String> VALUE_FLAGS =
            Set.of("--set", "--set-string", "--set-json", "--set-literal", "--set-file", "--values", "-f");
    /** Helm flags (other than the value flags) that take the next word as their value. */
    private static final Set<String> FLAGS_WITH_ARGUMENT = Set.of(
            "--namespace",
            "-n",
            "--version",
            "--timeout",
            "--kube-context",
            "--kubeconfig",
            "--kube-apiserver",
            "--kube-as-user",
            "--kube-as-group",
            "--kube-ca-file",
            "--kube-token",
            "--kube-tls-server-name",
            "--kube-version",
            "--api-versions",
            "-a",
            "--repo",
            "--description",
            "--post-renderer",
            "--post-renderer-args",
            "--output-dir",
            "--show-only",
            "-s",
            "--username",
            "--password",
            "--ca-file",
            "--cert-file",
            "--key-file",
            "--keyring",
            "--labels",
            "-l",
            "--name-template",
            "--registry-config",
            "--repository-cache",
            "--repository-config",
            "--burst-limit",
            "--qps",
            "--history-max",
            "--output",
            "-o");

    private static final String CHART = "charts/stackbench";
    private static final Pattern HELM = Pattern.compile("(^|[\\s;&|(])helm\\s");
    // Unquoted brace characters, kept apart from quoted ones until brace expansion.
    private static final char OPEN = '\uE000';
    private static final char COMMA = '\uE001';
    private static final char CLOSE = '\uE002';

    private DocumentedHelmCommands() {}

    /** The helm commands of a guide in the repository, e.g. {@code docs/cluster.md}. */
    static List<Command> read(Path repositoryRoot, String document) {
        Path file = repositoryRoot.resolve(document);
        try {
            return parse(Files.readString(file), document);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static List<Command> parse(String markdown, String document) {
        List<Command> commands = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        String fence = null;
        for (int i = 0; i < lines.length; i++) {
            String stripped = lines[i].strip();
            if (fence == null) {
                if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
                    fence = stripped.substring(0, 3);
                }
                continue;
            }
            if (stripped.startsWith(fence)) {
                fence = null;
                continue;
            }
            int first = i;
            StringBuilder line = new StringBuilder(lines[i]);
            while (endsWithContinuation(line) && i + 1 < lines.length) {
                line.setLength(line.length() - 1);
                line.append(' ').append(lines[++i]);
            }
            if (!HELM.matcher(line).find()) {
                continue; // output and other programs' lines may hold anything, e.g. a lone apostrophe
            }
            String origin = document + ":" + (first + 1);
            for (List<String> words : shellCommands(line.toString(), origin)) {
                if (words.size() > 1 && "helm".equals(words.get(0)) && SUBCOMMANDS.contains(subcommand(words))) {
                    commands.add(new Command(origin + " `" + String.join(" ", words) + "`", words));
                }
            }
        }
        return commands;
    }

    private static boolean endsWithContinuation(CharSequence line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    /**
     * The simple commands on one line, each as the words bash gives the program; redirections ({@code > file},
     * {@code 2>&1}) are left out.
     */
    static List<List<String>> shellCommands(String line, String origin) {
        List<List<String>> commands = new ArrayList<>();
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        boolean redirectTarget = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException(origin + ": unterminated ' quote in `" + line + "`");
                }
                word.append(line, i + 1, end);
                inWord = true;
                i = end;
            } else if (c == '"') {
                i = doubleQuoted(line, i + 1, word, origin);
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 < line.length()) {
                    word.append(line.charAt(++i));
                }
                inWord = true;
            } else if (c == '#' && !inWord) {
                break;
            } else if (c == '<' || c == '>') {
                // a file descriptor number written against the operator (2>) belongs to the redirection
                if (inWord && !word.toString().matches("\\d+")) {
                    redirectTarget = addWord(word.toString(), redirectTarget, words);
                }
                word.setLength(0);
                inWord = false;
                while (i + 1 < line.length() && "<>&|".indexOf(line.charAt(i + 1)) >= 0) {
                    i++;
                }
                redirectTarget = true;
            } else if (Character.isWhitespace(c) || c == ';' || c == '&' || c == '|') {
                if (inWord) {
                    redirectTarget = addWord(word.toString(), redirectTarget, words);
                }
                word.setLength(0);
                inWord = false;
                if (!Character.isWhitespace(c)) {
                    redirectTarget = false;
                    endCommand(words, commands);
                }
            } else {
                word.append(
                        switch (c) {
                            case '{' -> OPEN;
                            case ',' -> COMMA;
                            case '}' -> CLOSE;
                            default -> c;
                        });
                inWord = true;
            }
        }
        if (inWord) {
            addWord(word.toString(), redirectTarget, words);
        }
        endCommand(words, commands);
        return commands;
    }

    /** Adds a finished word, unless it is a redirection's target; returns whether a target is still due. */
    private static boolean addWord(String word, boolean redirectTarget, List<String> words) {
        if (!redirectTarget) {
            words.addAll(braceExpansion(word));
        }
        return false;
    }

    private static int doubleQuoted(String line, int start, StringBuilder word, String origin) {
        for (int i = start; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                return i;
            }
            if (c == '\\' && i + 1 < line.length() && "$`\"\\".indexOf(line.charAt(i + 1)) >= 0) {
                word.append(line.charAt(++i));
            } else {
                word.append(c);
            }
        }
        throw new IllegalArgumentException(origin + ": unterminated \" quote in `" + line + "`");
    }

    private static void endCommand(List<String> words, List<List<String>> commands) {
        if (!words.isEmpty()) {
            commands.add(List.copyOf(words));
            words.clear();
        }
    }

    /** Bash's brace expansion of one word whose unquoted braces and commas are marked. */
    static List<String> braceExpansion(String word) {
        for (int open = word.indexOf(OPEN); open >= 0; open = word.indexOf(OPEN, open + 1)) {
            int depth = 0;
            List<Integer> commas = new ArrayList<>();
            for (int i = open; i < word.length(); i++) {
                char c = word.charAt(i);
                if (c == OPEN) {
                    depth++;
                } else if (c == COMMA && depth == 1) {
                    commas.add(i);
                } else if (c == CLOSE && --depth == 0) {
                    if (commas.isEmpty()) {
                        break;
                    }
                    List<String> expanded = new ArrayList<>();
                    int from = open + 1;
                    commas.add(i);
                    for (int comma : commas) {
                        expanded.addAll(braceExpansion(
                                word.substring(0, open) + word.substring(from, comma) + word.substring(i + 1)));
                        from = comma + 1;
                    }
                    return expanded;
                }
            }
        }
        return List.of(word.replace(OPEN, '{').replace(COMMA, ',').replace(CLOSE, '}'));
    }

    private static String subcommand(List<String> words) {
        for (int i = 1; i < words.size(); i++) {
            String word = words.get(i);
            if (!word.startsWith("-")) {
                return word;
            }
            if (FLAGS_WITH_ARGUMENT.contains(word)) {
                i++;
            }
        }
        return "";
    }

    /**
     * The values a documented command installs the chart with, run from the repository root as the guides
     * say: value files resolved against it.
     *
     * @throws IllegalArgumentException if helm would refuse the command line itself (too many arguments, a flag
     *     without its value, a values file that does not exist) or it installs another chart
     */
    static HelmValues values(Command command, Path repositoryRoot) {
        List<String> words = command.words();
        String origin = command.origin();
        List<String> arguments = new ArrayList<>();
        List<String> positional = new ArrayList<>();
        String namespace = "default";
        boolean generateName = false;
        for (int i = 1; i < words.size(); i++) {
            String word = words.get(i);
            if ("--".equals(word)) {
                positional.addAll(words.subList(i + 1, words.size()));
                break;
            }
            if (!word.startsWith("-") || "-".equals(word)) {
                positional.add(word);
                continue;
            }
            String flag = word;
            String value = null;
            int equals = word.indexOf('=');
            if (word.startsWith("--") && equals > 0) {
                flag = word.substring(0, equals);
                value = word.substring(equals + 1);
            }
            boolean takesValue = VALUE_FLAGS.contains(flag) || FLAGS_WITH_ARGUMENT.contains(flag);
            if (takesValue && value == null) {
                if (i + 1 >= words.size()) {
                    throw new IllegalArgumentException(origin + ": " + flag + " has no value; helm refuses it");
                }
                value = words.get(++i);
            }
            switch (flag) {
                case "--namespace", "-n" -> namespace = value;
                case "--generate-name", "-g" -> generateName = true;
                case "--values", "-f" -> {
                    for (String file : value.split(",")) {
                        arguments.addAll(List.of("--values", localFile(file, repositoryRoot, origin)));
                    }
                }
                case "--set-file" -> arguments.addAll(List.of(flag, fileValue(value, repositoryRoot, origin)));
                case "--set", "--set-string", "--set-json", "--set-literal" -> arguments.addAll(List.of(flag, value));
                default -> {
                    // other flags (--wait, --create-namespace, --timeout, ...) do not change the values
                }
            }
        }
        String subcommand = positional.isEmpty() ? "" : positional.remove(0);
        int maximum = generateName ? 1 : 2;
        int minimum = generateName || "template".equals(subcommand) ? 1 : 2;
        if (positional.size() < minimum || positional.size() > maximum) {
            throw new IllegalArgumentException(origin + ": bash passes `helm " + subcommand + "` the arguments "
                    + positional + " besides its flags, but it takes " + (maximum == 1 ? "CHART" : "[NAME] CHART")
                    + "; helm refuses the command. Quote any --set value with braces, commas or spaces (bash expands"
                    + " an unquoted {a,b} into two words), e.g. --set 'watch.namespaces={a,b}'.");
        }
        String chart = positional.get(positional.size() - 1);
        if (!repositoryRoot.resolve(chart).normalize().equals(repositoryRoot.resolve(CHART))) {
            throw new IllegalArgumentException(origin + ": installs chart '" + chart + "'; this test renders only "
                    + CHART + " (the guides run from the repository root): extend DocumentedHelmCommands for"
                    + " another chart");
        }
        String release = positional.size() == 2 ? positional.get(0) : "release-name";
        return new HelmValues(origin, release, namespace, arguments);
    }

    private static String fileValue(String assignment, Path repositoryRoot, String origin) {
        int equals = assignment.indexOf('=');
        if (equals < 0) {
            throw new IllegalArgumentException(origin + ": --set-file " + assignment + " is not key=path");
        }
        return assignment.substring(0, equals + 1)
                + localFile(assignment.substring(equals + 1), repositoryRoot, origin);
    }

    private static String localFile(String file, Path repositoryRoot, String origin) {
        if (file.matches("[a-z]+://.*")) {
            return file;
        }
        Path path = repositoryRoot.resolve(file);
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException(origin + ": names the file " + file + ", which is not in the"
                    + " repository (" + path + "): fix the path or add the file");
        }
        return path.toString();
    }
}
