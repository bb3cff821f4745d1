package dev.stackbench.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line and environment of a Spring Boot jar started by local mode, sized the way a pod with the
 * same limits would be: the JVM is told the CPU count of its limit (-XX:ActiveProcessorCount) and the memory
 * of its limit (-XX:MaxRAM), so heap defaults and MaxRAMPercentage behave as they would in a container.
 */
public record JavaProcessSpec(List<String> command, Map<String, String> environment) {

    public JavaProcessSpec {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
    }

    /**
     * @param activeProcessors CPUs the JVM is told it has
     * @param memoryBytes memory limit the JVM sizes itself from, or 0 to leave the JVM's own default
     * @param jvmOptions extra options from the spec, split like a shell would (quotes group words)
     * @param environment variables for the process; later entries override earlier ones
     */
    public static JavaProcessSpec of(
            Path javaBin,
            Path jar,
            int activeProcessors,
            long memoryBytes,
            String jvmOptions,
            Map<String, String> environment,
            List<String> applicationArguments) {
        List<String> command = new ArrayList<>();
        command.add(javaBin.toString());
        command.add("-XX:ActiveProcessorCount=" + activeProcessors);
        if (memoryBytes > 0) {
            command.add("-XX:MaxRAM=" + memoryBytes);
        }
        command.addAll(splitOptions(jvmOptions));
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(applicationArguments);
        return new JavaProcessSpec(command, new LinkedHashMap<>(environment));
    }

    /** Splits JVM options on whitespace; single or double quotes keep a value with spaces together. */
    static List<String> splitOptions(String options) {
        List<String> words = new ArrayList<>();
        if (options == null) {
            return words;
        }
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (char c : options.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException(
                    "spec.target.jvmOptions has an unclosed " + quote + " quote: " + options + ": close the quote");
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
