package dev.stackbench.chart;

import java.util.List;

/**
 * The values one way of installing the chart hands to helm: the value arguments ({@code --set ...},
 * {@code --values <absolute path>}, ...) in the order helm gets them, with the release and namespace they are
 * installed as. {@code origin} says where they come from (a skaffold profile, a line of a guide) for failure
 * messages.
 */
record HelmValues(String origin, String release, String namespace, List<String> arguments) {

    HelmValues {
        arguments = List.copyOf(arguments);
    }

    @Override
    public String toString() {
        return origin;
    }
}
