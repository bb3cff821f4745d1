package dev.stackbench.targets.common;

import java.util.List;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;

/**
 * Stops an application at once, before it touches the database, when no variant of this app is active, and says
 * how to pick one. Each variant's profile sets {@code stackbench.variant}.
 */
public final class VariantCheck implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {

    private final String app;
    private final List<String> variants;

    public VariantCheck(String app, List<String> variants) {
        this.app = app;
        this.variants = List.copyOf(variants);
    }

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        String variant = event.getEnvironment().getProperty("stackbench.variant", "");
        if (!variants.contains(variant)) {
            throw new IllegalStateException(app + " runs one of the variants " + String.join(", ", variants)
                    + ", but the active profiles are "
                    + List.of(event.getEnvironment().getActiveProfiles())
                    + ": start it with --spring.profiles.active=<variant> or SPRING_PROFILES_ACTIVE=<variant>"
                    + " (the variants are listed in targets/variants.yaml)");
        }
    }
}
