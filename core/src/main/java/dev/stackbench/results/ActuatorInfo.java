package dev.stackbench.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.Map;

/**
 * The versions a target reports on /actuator/info. Searched by key anywhere in the document, so the layout the
 * apps choose (build info, a "stackbench" section, Spring's java contributor) does not matter.
 */
public record ActuatorInfo(String variant, String javaVersion, String springBootVersion) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static ActuatorInfo parse(String json) {
        try {
            JsonNode root = JSON.readTree(json);
            return new ActuatorInfo(find(root, "variant"), javaVersion(root), springBootVersion(root));
        } catch (Exception e) {
            return new ActuatorInfo(null, null, null);
        }
    }

    private static String javaVersion(JsonNode root) {
        JsonNode java = root.path("java");
        if (java.isObject() && java.path("version").isTextual()) {
            return java.path("version").asText();
        }
        String found = find(root, "javaVersion");
        return found != null ? found : find(root, "java");
    }

    private static String springBootVersion(JsonNode root) {
        for (String key : new String[] {"springBootVersion", "spring-boot", "springBoot", "spring_boot"}) {
            String found = find(root, key);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The first textual value (or an object's "version") under this key, depth first. */
    private static String find(JsonNode node, String key) {
        if (!node.isContainerNode()) {
            return null;
        }
        JsonNode direct = node.get(key);
        if (direct != null) {
            if (direct.isValueNode()) {
                return direct.asText();
            }
            if (direct.path("version").isValueNode()) {
                return direct.path("version").asText();
            }
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            String found = find(fields.next().getValue(), key);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
