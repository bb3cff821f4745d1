package dev.stackbench.operator.run;

import java.util.Locale;

/**
 * A container image reference split the way the container runtime reads it, so that a policy compares what is pulled
 * rather than how it is spelt: {@code stackbench/mvc-app:1}, {@code docker.io/stackbench/mvc-app:1} and
 * {@code index.docker.io/stackbench/mvc-app:1} are the same image, {@code postgres} is {@code docker.io/library/postgres}.
 *
 * @param repository registry host and path, e.g. {@code docker.io/stackbench/mvc-app}
 * @param tag the tag, or null when the reference names none (the runtime then pulls {@code latest})
 * @param digest the digest after {@code @}, or null
 */
public record ImageReference(String repository, String tag, String digest) {

    private static final String DOCKER_HUB = "docker.io";

    /** Reads {@code reference} as the container runtime would. */
    public static ImageReference parse(String reference) {
        String rest = reference.strip();
        String digest = null;
        int at = rest.indexOf('@');
        if (at >= 0) {
            digest = rest.substring(at + 1);
            rest = rest.substring(0, at);
        }
        String tag = null;
        int colon = rest.lastIndexOf(':');
        if (colon > rest.lastIndexOf('/')) {
            tag = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
        }
        return new ImageReference(repository(rest), tag, digest);
    }

    /**
     * A repository as written in a policy ({@code stackbench/mvc-app}, {@code registry.example.com/team/}) in the form
     * {@link #repository()} has; a trailing {@code /} (a whole path of repositories) is kept.
     */
    public static String normalizeRepository(String repository) {
        String trimmed = repository.strip();
        boolean subtree = trimmed.endsWith("/");
        String normalized = repository(subtree ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
        return subtree ? normalized + "/" : normalized;
    }

    /** The repository with its registry: Docker Hub when the first part names no host, its official images under library/. */
    private static String repository(String name) {
        int slash = name.indexOf('/');
        String first = slash < 0 ? "" : name.substring(0, slash);
        boolean namesRegistry = first.contains(".") || first.contains(":") || first.equals("localhost");
        if (!namesRegistry) {
            return DOCKER_HUB + "/" + (slash < 0 ? "library/" + name : name);
        }
        String registry = first.toLowerCase(Locale.ROOT);
        if (registry.equals("index.docker.io") || registry.equals("registry-1.docker.io")) {
            registry = DOCKER_HUB;
        }
        String path = name.substring(slash + 1);
        if (registry.equals(DOCKER_HUB) && !path.contains("/")) {
            path = "library/" + path;
        }
        return registry + "/" + path;
    }

    /** True when {@code allowed} (normalized: a repository, or a path ending in {@code /}) covers this image. */
    public boolean isIn(String allowed) {
        return allowed.endsWith("/") ? repository.startsWith(allowed) : repository.equals(allowed);
    }
}
