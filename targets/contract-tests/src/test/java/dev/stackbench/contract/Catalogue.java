package dev.stackbench.contract;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * targets/variants.yaml as the operator and the local runner read it. Unknown fields fail the read, so a change of
 * format shows up here first.
 */
record Catalogue(Map<String, App> apps, List<Variant> variants) {

    record App(String image, String jar) {}

    record ThreadPool(String name, Integer size, Integer perCpu, Integer minimum, String sizeEnv) {}

    record Variant(
            String name,
            String app,
            String profile,
            String description,
            ThreadPool threadPool,
            List<String> blocksPoolOn,
            List<String> fanoutModes) {

        /** The mode /api/fanout runs when the request names none. */
        String defaultFanoutMode() {
            return fanoutModes.getFirst();
        }
    }

    static Path root() {
        return Path.of(System.getProperty("stackbench.root", "../.."))
                .toAbsolutePath()
                .normalize();
    }

    static Catalogue load() {
        Path file = root().resolve("targets/variants.yaml");
        ObjectMapper yaml = YAMLMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build();
        try {
            return yaml.readValue(Files.readString(file), Catalogue.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("Cannot read the variant catalogue " + file, e);
        }
    }

    Variant variant(String name) {
        return variants.stream()
                .filter(v -> v.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No variant " + name + " in targets/variants.yaml"));
    }

    Path jar(String app) {
        return root().resolve(apps.get(app).jar());
    }
}
