package dev.stackbench.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stackbench.api.comparison.BenchmarkComparison;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/** Reads and writes BenchmarkRun YAML or JSON; a file may hold several runs as YAML documents separated by ---. */
public final class BenchmarkRuns {

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            // The API server refuses a number where the schema says string (e.g. cpu: 2); so does local mode.
            .withCoercionConfig(
                    LogicalType.Textual, config -> config.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .build();

    private BenchmarkRuns() {}

    /** The mapper used for BenchmarkRun YAML, strict about unknown fields. */
    public static ObjectMapper yamlMapper() {
        return YAML;
    }

    /** Reads every BenchmarkRun in a file, in order. Defaults are not applied ({@link BenchmarkRunDefaults}). */
    public static List<BenchmarkRun> read(Path file) {
        return read(text(file), file.toString());
    }

    /** Reads every BenchmarkRun in a YAML or JSON text; {@code source} names it in error messages. */
    public static List<BenchmarkRun> read(String text, String source) {
        return readAll(text, source, BenchmarkRun.class, BenchmarkRun.KIND);
    }

    /**
     * The kind of the resources in a file: BenchmarkRun or BenchmarkComparison. A file holds one kind; anything else
     * is refused with a message saying what the file holds.
     */
    public static String kind(Path file) {
        String text = text(file);
        List<String> kinds = new ArrayList<>();
        forEachDocument(text, file.toString(), (document, node) -> {
            String apiVersion = node.path("apiVersion").asText(null);
            String kind = node.path("kind").asText(null);
            if (!BenchmarkRun.API_VERSION.equals(apiVersion)
                    || !(BenchmarkRun.KIND.equals(kind) || BenchmarkComparison.KIND.equals(kind))) {
                throw new BenchmarkRunFileException(file + ": document " + document + " is apiVersion " + apiVersion
                        + ", kind " + kind + ", not a BenchmarkRun or BenchmarkComparison: set apiVersion: "
                        + BenchmarkRun.API_VERSION + " and kind: " + BenchmarkRun.KIND + " (or "
                        + BenchmarkComparison.KIND + ")");
            }
            kinds.add(kind);
        });
        if (kinds.isEmpty()) {
            throw new BenchmarkRunFileException(file + ": holds no resource: write a BenchmarkRun or a"
                    + " BenchmarkComparison with apiVersion: " + BenchmarkRun.API_VERSION + ", kind, metadata.name"
                    + " and spec");
        }
        if (kinds.stream().distinct().count() > 1) {
            throw new BenchmarkRunFileException(file + ": mixes BenchmarkRuns and BenchmarkComparisons: put the"
                    + " comparison in a file of its own");
        }
        return kinds.getFirst();
    }

    /** The text of a YAML file, or a {@link BenchmarkRunFileException} naming the file. */
    public static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new BenchmarkRunFileException(file + ": no such file: give the path of a BenchmarkRun YAML file", e);
        } catch (IOException e) {
            throw new BenchmarkRunFileException(file + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    /** Reads every resource of one kind in a text, keeping line numbers in errors. */
    public static <T> List<T> readAll(String text, String source, Class<T> type, String kind) {
        checkKinds(text, source, kind);
        List<T> resources = new ArrayList<>();
        int document = 0;
        // Typed reading straight from the YAML parser keeps line numbers in every error.
        try (JsonParser parser = YAML.createParser(text)) {
            while (parser.nextToken() != null) {
                document++;
                if (parser.currentToken() == JsonToken.VALUE_NULL) {
                    continue;
                }
                resources.add(YAML.readValue(parser, type));
            }
        } catch (JsonProcessingException e) {
            throw new BenchmarkRunFileException(describe(source, document, e), e);
        } catch (IOException e) {
            throw new BenchmarkRunFileException(source + ": cannot be read (" + e.getMessage() + ")", e);
        }
        if (resources.isEmpty()) {
            throw new BenchmarkRunFileException(source + ": holds no " + kind + ": write one with apiVersion: "
                    + BenchmarkRun.API_VERSION + ", kind: " + kind + ", metadata.name and spec");
        }
        return resources;
    }

    /** Reads exactly one BenchmarkRun; a file with several is refused with a message saying so. */
    public static BenchmarkRun readOne(Path file) {
        List<BenchmarkRun> runs = read(file);
        if (runs.size() != 1) {
            throw new BenchmarkRunFileException(file + ": holds " + runs.size() + " BenchmarkRuns, expected one:"
                    + " split the file or pass the runs one by one");
        }
        return runs.get(0);
    }

    /** Writes a run as YAML, leaving out unset fields. */
    public static String toYaml(Object value) {
        try {
            return YAML.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as YAML", e);
        }
    }

    /** The typed resource always reports its own kind, so kinds are checked on the untyped documents first. */
    private static void checkKinds(String text, String source, String expected) {
        forEachDocument(text, source, (document, node) -> {
            String apiVersion = node.path("apiVersion").asText(null);
            String kind = node.path("kind").asText(null);
            if (!expected.equals(kind) || !BenchmarkRun.API_VERSION.equals(apiVersion)) {
                throw new BenchmarkRunFileException(source + ": document " + document + " is apiVersion "
                        + apiVersion + ", kind " + kind + ", not a " + expected + ": set apiVersion: "
                        + BenchmarkRun.API_VERSION + " and kind: " + expected);
            }
        });
    }

    private interface DocumentVisitor {
        void visit(int document, JsonNode node);
    }

    private static void forEachDocument(String text, String source, DocumentVisitor visitor) {
        int document = 0;
        try (JsonParser parser = YAML.createParser(text)) {
            while (parser.nextToken() != null) {
                document++;
                JsonNode node = YAML.readTree(parser);
                if (node == null || node.isNull() || node.isMissingNode()) {
                    continue;
                }
                visitor.visit(document, node);
            }
        } catch (JsonProcessingException e) {
            throw new BenchmarkRunFileException(describe(source, document, e), e);
        } catch (IOException e) {
            throw new BenchmarkRunFileException(source + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    static String describe(String source, int document, JsonProcessingException e) {
        StringBuilder where = new StringBuilder(source).append(": document ").append(document);
        JsonLocation location = e.getLocation();
        if (location != null && location.getLineNr() > 0) {
            where.append(", line ")
                    .append(location.getLineNr())
                    .append(", column ")
                    .append(location.getColumnNr());
        }
        where.append(": ");
        if (e instanceof UnrecognizedPropertyException unknown) {
            String path = path(unknown);
            Collection<Object> known = unknown.getKnownPropertyIds();
            String knownText = known == null
                    ? ""
                    : " (known fields here: "
                            + known.stream().map(Object::toString).sorted().collect(Collectors.joining(", ")) + ")";
            return where + "unknown field " + path + knownText + ": remove it or fix its spelling";
        }
        if (e instanceof InvalidFormatException invalid) {
            return where + "field " + path(invalid) + " has the wrong value '" + invalid.getValue() + "': "
                    + expected(invalid.getTargetType());
        }
        if (e instanceof MismatchedInputException mismatch
                && !mismatch.getPath().isEmpty()) {
            return where + "field " + path(mismatch) + " has the wrong type: " + expected(mismatch.getTargetType());
        }
        return where + "not valid YAML/JSON (" + e.getOriginalMessage() + "): fix the syntax";
    }

    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "check the field's type";
        }
        if (type.isEnum()) {
            return "use one of " + String.join(", ", enumNames(type));
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "write a whole number";
        }
        if (type == Double.class || type == double.class) {
            return "write a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "write true or false";
        }
        if (type == String.class) {
            return "write a string; quote numbers, e.g. cpu: \"2\" or SERVER_TOMCAT_THREADS_MAX: \"100\"";
        }
        if (List.class.isAssignableFrom(type)) {
            return "write a list";
        }
        return "write a map of fields (" + type.getSimpleName() + ")";
    }

    private static List<String> enumNames(Class<?> type) {
        return Arrays.stream(type.getFields())
                .filter(java.lang.reflect.Field::isEnumConstant)
                .map(field -> {
                    JsonProperty property = field.getAnnotation(JsonProperty.class);
                    return property != null ? property.value() : field.getName();
                })
                .toList();
    }
}
