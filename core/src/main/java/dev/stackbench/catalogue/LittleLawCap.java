package dev.stackbench.catalogue;

import java.util.Locale;

/**
 * The throughput a fixed number of concurrent slots allows when each request holds a slot for a known time
 * (Little's law: throughput = concurrency / time in system).
 *
 * @param rps the cap in requests per second
 * @param slots the pool size that bounds it
 * @param serviceSeconds the nominal time one request holds a slot
 * @param limitedBy what the slots are, e.g. "200 tomcat threads" or "100 database connections"
 */
public record LittleLawCap(double rps, int slots, double serviceSeconds, String limitedBy) {

    public String explanation() {
        return String.format(Locale.ROOT, "%s / %.3f s per request = %.1f requests/s", limitedBy, serviceSeconds, rps);
    }
}
