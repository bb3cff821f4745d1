package dev.stackbench.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The helm values skaffold.yaml deploys the chart with: for every config, once without a profile and once per
 * profile, each helm release's arguments as skaffold builds them ({@code --set} for setValues, {@code --set-file}
 * for setFiles, {@code --set} for setValueTemplates, {@code -f} for valuesFiles, in that order, keys sorted).
 *
 * <p>A profile is applied as skaffold does: its sections laid over the config, then its JSON patches (add,
 * replace, remove). Templates get sample values for the images the config builds, like skaffold's
 * {@code IMAGE_REPO_<image>} and {@code IMAGE_TAG_<image>} after a build; a template naming anything else is an
 * error, because skaffold would hand helm {@code <no value>} in its place.
 */
final class SkaffoldReleases {

    /** Registry the sample image repositories are in, like {@code skaffold run --default-repo=...}. */
    static final String SAMPLE_REGISTRY = "registry.example.com";
    /** Tag of every image: the gitCommit tag policy gives all artifacts the same abbreviated commit. */
    static final String SAMPLE_TAG = "5768bb8";

    static final String SAMPLE_DIGEST = "sha256:" + "0123456789abcdef".repeat(4);

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Pattern TEMPLATE_FIELD = Pattern.compile("\\{\\{\\s*\\.([A-Za-z0-9_]+)\\s*}}");
    private static final Set<String> PROFILE_KEYS_NOT_OVERLAID =
            Set.of("name", "activation", "patches", "requiresAllActivations");
    private static final String CHART = "charts/stackbench";

    private SkaffoldReleases() {}

    /** The releases of the repository's skaffold.yaml. */
    static List<HelmValues> read(Path repositoryRoot) {
        Path file = repositoryRoot.resolve("skaffold.yaml");
        try {
            return parse(Files.readString(file), repositoryRoot, "skaffold.yaml");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The releases of a skaffold file's text; relative paths in it are relative to {@code directory}. */
    static List<HelmValues> parse(String yaml, Path directory, String fileName) {
        List<JsonNode> configs = documents(yaml, fileName);
        List<HelmValues> values = new ArrayList<>();
        for (JsonNode config : configs) {
            String name = configs.size() > 1
                    ? fileName + " (config "
                            + config.path("metadata").path("name").asText("?") + ")"
                    : fileName;
            values.addAll(releases(config, name + ", no profile", directory));
            for (JsonNode profile : config.path("profiles")) {
                String origin = name + ", profile " + profile.path("name").asText("?");
                values.addAll(releases(withProfile(config, profile, origin), origin, directory));
            }
        }
        return values;
    }

    /** Names of the profiles in a skaffold file's text, to check that each is covered. */
    static List<String> profileNames(String yaml) {
        List<String> names = new ArrayList<>();
        documents(yaml, "skaffold.yaml").forEach(config -> config.path("profiles")
                .forEach(p -> names.add(p.path("name").asText())));
        return names;
    }

    private static List<JsonNode> documents(String yaml, String fileName) {
        List<JsonNode> documents = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(yaml)) {
            Iterator<JsonNode> iterator = YAML.readValues(parser, JsonNode.class);
            while (iterator.hasNext()) {
                JsonNode document = iterator.next();
                if (document != null && document.isObject()) {
                    documents.add(document);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(fileName + " is not valid YAML: " + e.getMessage(), e);
        }
        return documents;
    }

    static JsonNode withProfile(JsonNode config, JsonNode profile, String origin) {
        ObjectNode result = config.deepCopy();
        result.remove("profiles");
        profile.properties().forEach(field -> {
            if (!PROFILE_KEYS_NOT_OVERLAID.contains(field.getKey())) {
                overlay(result, field.getKey(), field.getValue());
            }
        });
        for (JsonNode patch : profile.path("patches")) {
            applyPatch(result, patch, origin);
        }
        return result;
    }

    /** Skaffold's profile overlay: sections merge field by field, lists and plain values replace. */
    private static void overlay(ObjectNode target, String key, JsonNode value) {
        JsonNode existing = target.get(key);
        if (existing instanceof ObjectNode existingObject && value.isObject()) {
            value.properties().forEach(field -> overlay(existingObject, field.getKey(), field.getValue()));
        } else {
            target.set(key, value.deepCopy());
        }
    }

    /** One RFC 6902 operation; skaffold profiles use add, replace and remove. */
    private static void applyPatch(ObjectNode config, JsonNode patch, String origin) {
        String op = patch.path("op").asText("add");
        String path = patch.path("path").asText();
        List<String> tokens = pointerTokens(path, origin);
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException(
                    origin + ": a patch must not replace the whole config (path " + path + "): patch a field below it");
        }
        JsonNode parent = config;
        for (String token : tokens.subList(0, tokens.size() - 1)) {
            parent = child(parent, token);
            if (parent == null) {
                throw new IllegalArgumentException(origin + ": patch path " + path + " does not exist in the config"
                        + " (missing at '" + token + "'), so skaffold refuses the profile: add the parent first");
            }
        }
        String last = tokens.get(tokens.size() - 1);
        switch (op) {
            case "add" -> add(parent, last, patch.path("value"), path, origin);
            case "replace" -> {
                if (child(parent, last) == null) {
                    throw new IllegalArgumentException(
                            origin + ": patch replaces " + path + ", which does not exist: use op add");
                }
                add(remove(parent, last, path, origin), last, patch.path("value"), path, origin);
            }
            case "remove" -> remove(parent, last, path, origin);
            default ->
                throw new IllegalArgumentException(origin + ": patch op '" + op + "' at " + path
                        + " is not rendered by this test (it knows add, replace and remove): extend"
                        + " SkaffoldReleases.applyPatch");
        }
    }

    private static void add(JsonNode parent, String token, JsonNode value, String path, String origin) {
        if (parent instanceof ObjectNode object) {
            object.set(token, value.deepCopy());
        } else if (parent instanceof ArrayNode array) {
            if ("-".equals(token)) {
                array.add(value.deepCopy());
            } else {
                int index = arrayIndex(token, array.size(), path, origin);
                array.insert(index, value.deepCopy());
            }
        } else {
            throw new IllegalArgumentException(origin + ": patch path " + path + " goes into a plain value");
        }
    }

    private static JsonNode remove(JsonNode parent, String token, String path, String origin) {
        if (parent instanceof ObjectNode object && object.has(token)) {
            object.remove(token);
        } else if (parent instanceof ArrayNode array) {
            array.remove(arrayIndex(token, array.size() - 1, path, origin));
        } else {
            throw new IllegalArgumentException(origin + ": patch removes " + path + ", which does not exist");
        }
        return parent;
    }

    private static int arrayIndex(String token, int max, String path, String origin) {
        try {
            int index = Integer.parseInt(token);
            if (index >= 0 && index <= max) {
                return index;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(origin + ": patch path " + path + " has no list entry '" + token + "'");
    }

    private static JsonNode child(JsonNode node, String token) {
        if (node instanceof ArrayNode array) {
            return token.matches("\\d+") ? array.get(Integer.parseInt(token)) : null;
        }
        return node instanceof ObjectNode object ? object.get(token) : null;
    }

    private static List<String> pointerTokens(String path, String origin) {
        if (path.isEmpty()) {
            return List.of();
        }
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException(
                    origin + ": patch path '" + path + "' is no JSON pointer: start it with /");
        }
        List<String> tokens = new ArrayList<>();
        for (String token : path.substring(1).split("/", -1)) {
            tokens.add(token.replace("~1", "/").replace("~0", "~"));
        }
        return tokens;
    }

    private static List<HelmValues> releases(JsonNode config, String origin, Path directory) {
        Map<String, String> templateFields = templateFields(config);
        List<HelmValues> values = new ArrayList<>();
        for (JsonNode release : config.path("deploy").path("helm").path("releases")) {
            String name = release.path("name").asText();
            String releaseOrigin = origin + ", release " + name;
            if (release.has("remoteChart")
                    || !isTheChart(release.path("chartPath").asText(), directory)) {
                throw new IllegalArgumentException(releaseOrigin + " deploys "
                        + release.path("chartPath")
                                .asText(release.path("remoteChart").asText())
                        + "; this test renders only " + CHART + ": extend SkaffoldReleases for another chart");
            }
            if (release.has("overrides")) {
                throw new IllegalArgumentException(releaseOrigin + " uses overrides, which this test does not"
                        + " render: use setValues or a valuesFiles entry, or extend SkaffoldReleases");
            }
            List<String> arguments = new ArrayList<>();
            flatten(release.path("setValues"))
                    .forEach((key, value) -> arguments.addAll(List.of("--set", key + "=" + value)));
            flatten(release.path("setFiles"))
                    .forEach((key, file) ->
                            arguments.addAll(List.of("--set-file", key + "=" + directory.resolve(file))));
            flatten(release.path("setValueTemplates"))
                    .forEach((key, template) -> arguments.addAll(
                            List.of("--set", key + "=" + expand(template, templateFields, releaseOrigin + " " + key))));
            for (JsonNode file : release.path("valuesFiles")) {
                String expanded = expand(file.asText(), templateFields, releaseOrigin + " valuesFiles");
                arguments.addAll(List.of("-f", directory.resolve(expanded).toString()));
            }
            values.add(new HelmValues(
                    releaseOrigin, name, release.path("namespace").asText("default"), arguments));
        }
        return values;
    }

    private static boolean isTheChart(String chartPath, Path directory) {
        return !chartPath.isEmpty()
                && directory
                        .resolve(chartPath)
                        .normalize()
                        .equals(directory.resolve(CHART).normalize());
    }

    /** Keys sorted, nested maps joined with dots, like skaffold's flat maps. */
    private static Map<String, String> flatten(JsonNode map) {
        Map<String, String> flat = new TreeMap<>();
        flatten("", map, flat);
        return flat;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> flat) {
        if (node.isObject()) {
            node.properties().forEach(field -> flatten(prefix + field.getKey() + ".", field.getValue(), flat));
        } else if (!node.isMissingNode() && !prefix.isEmpty()) {
            flat.put(prefix.substring(0, prefix.length() - 1), node.isNull() ? "" : node.asText());
        }
    }

    /** What skaffold offers templates after building the config's artifacts, with sample values. */
    private static Map<String, String> templateFields(JsonNode config) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (JsonNode artifact : config.path("build").path("artifacts")) {
            String image = artifact.path("image").asText();
            String key = image.replaceAll("[^A-Za-z0-9]", "_");
            String repository = SAMPLE_REGISTRY + "/" + image;
            fields.put("IMAGE_REPO_" + key, repository);
            fields.put("IMAGE_TAG_" + key, SAMPLE_TAG);
            fields.put("IMAGE_DIGEST_" + key, SAMPLE_DIGEST);
            fields.put("IMAGE_DOMAIN_" + key, SAMPLE_REGISTRY);
            fields.put("IMAGE_REPO_NO_DOMAIN_" + key, image);
            fields.put("IMAGE_FULLY_QUALIFIED_" + key, repository + ":" + SAMPLE_TAG + "@" + SAMPLE_DIGEST);
        }
        return fields;
    }

    static String expand(String template, Map<String, String> fields, String origin) {
        Matcher matcher = TEMPLATE_FIELD.matcher(template);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            String value = fields.get(matcher.group(1));
            if (value == null) {
                throw new IllegalArgumentException(origin + ": template '" + template + "' names ."
                        + matcher.group(1) + ", which skaffold does not define after building this config's images"
                        + " (helm would get '<no value>'); the image fields are " + fields.keySet());
            }
            matcher.appendReplacement(result, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(result);
        if (result.indexOf("{{") >= 0) {
            throw new IllegalArgumentException(origin + ": template '" + template + "' uses template syntax this"
                    + " test does not evaluate (only {{.FIELD}}): simplify it or extend SkaffoldReleases.expand");
        }
        return result.toString();
    }
}
