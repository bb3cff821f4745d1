package dev.stackbench.results;

import java.time.Instant;

/** One scrape of the target's /actuator/prometheus: when it was taken and the text the target answered. */
public record TimedScrape(Instant at, String prometheusText) {}
