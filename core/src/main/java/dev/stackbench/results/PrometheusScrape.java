package dev.stackbench.results;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Predicate;

/** One scrape of a Prometheus text endpoint: every sample, in order. */
public record PrometheusScrape(List<Sample> samples) {

    /**
     * One sample line: metric name, labels, value and, when the line has one, the time the exporter took it (in
     * milliseconds since the epoch; the kubelet's cAdvisor stamps every sample, since it refreshes them on its own
     * schedule), else null.
     */
    public record Sample(String name, Map<String, String> labels, double value, Long timestampMs) {

        public Sample(String name, Map<String, String> labels, double value) {
            this(name, labels, value, null);
        }

        public String label(String key) {
            return labels.get(key);
        }
    }

    public PrometheusScrape {
        samples = List.copyOf(samples);
    }

    public boolean has(String name) {
        return samples.stream().anyMatch(sample -> sample.name().equals(name));
    }

    /** Sum of every series of a metric (e.g. heap used over all heap pools); empty when the metric is absent. */
    public OptionalDouble sum(String name) {
        return sum(name, labels -> true);
    }

    /** Sum of the series of a metric whose labels match. */
    public OptionalDouble sum(String name, Predicate<Map<String, String>> labelFilter) {
        boolean found = false;
        double total = 0;
        for (Sample sample : samples) {
            if (sample.name().equals(name) && labelFilter.test(sample.labels()) && !Double.isNaN(sample.value())) {
                total += sample.value();
                found = true;
            }
        }
        return found ? OptionalDouble.of(total) : OptionalDouble.empty();
    }

    /** Sum over every metric whose name matches, e.g. all r2dbc pool "pending" gauges. */
    public OptionalDouble sumMatching(Predicate<String> nameFilter) {
        boolean found = false;
        double total = 0;
        for (Sample sample : samples) {
            if (nameFilter.test(sample.name()) && !Double.isNaN(sample.value())) {
                total += sample.value();
                found = true;
            }
        }
        return found ? OptionalDouble.of(total) : OptionalDouble.empty();
    }
}
