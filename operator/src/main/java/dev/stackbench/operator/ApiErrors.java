package dev.stackbench.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a run does when the API server does not complete a request the operator makes for it, decided here once for
 * every request (applying the run's objects, reading logs, listing Jobs, cleaning up):
 *
 * <ul>
 *   <li>403 Forbidden: the operator's ServiceAccount lacks an RBAC right. Rights are granted outside the run, so it
 *       waits (Stalled, reason Forbidden) naming the verb and resource, and goes on once granted; spec.timeout ends
 *       the wait.
 *   <li>400 Bad Request, 413 Request Entity Too Large, 422 Invalid to a request that writes one of the run's
 *       objects: the object built from the spec is refused. Asking again cannot help, so the run fails at once
 *       with the API server's message, which names the field.
 *   <li>Anything else (409 Conflict, 429, 5xx, timeouts, lost connections, 404 of an object that went away while
 *       it was read): transient; the run retries, saying so, until spec.timeout.
 * </ul>
 *
 * A request whose missing object the run can explain (the ConfigMap of a custom script) is answered where it is
 * made; this class sees only what reaches the reconciler.
 */
public final class ApiErrors {

    /** How a run answers a refused or failed request. */
    enum Handling {
        /** Wait for a right to be granted; go on by itself afterwards. */
        WAIT_FOR_PERMISSION,
        /** Fail the run now: the request can never succeed as it is. */
        FAIL,
        /** Try again shortly. */
        RETRY
    }

    /** The HTTP status the API server answers an unprocessable (invalid) object with. */
    static final int UNPROCESSABLE = 422;

    private static final int TOO_LARGE = 413;
    private static final Pattern REFUSED_RIGHT = Pattern.compile(
            "cannot (\\S+) resource \"([^\"]+)\"(?: in API group \"([^\"]*)\")?(?: in the namespace \"([^\"]+)\")?");

    /**
     * A request the operator made for a run, and the API server's answer.
     *
     * @param request what the operator asked, e.g. "apply Deployment r-target", or null when only the API server's
     *     answer says
     * @param object the object the request was about, when it was one of the run's objects
     */
    record Failure(Handling handling, KubernetesClientException error, String request, HasMetadata object) {

        int code() {
            return error.getCode();
        }

        /** The API server's own words, or the client's when no answer came. */
        String serverMessage() {
            return Optional.ofNullable(error.getStatus())
                    .map(Status::getMessage)
                    .filter(message -> !message.isBlank())
                    .orElseGet(() -> Objects.requireNonNullElse(
                            rootMessage(error), error.getClass().getSimpleName()));
        }

        /** For a 403: "create deployments in API group "apps" in namespace x", from the API server's answer. */
        String refusedRight() {
            Matcher matcher = REFUSED_RIGHT.matcher(serverMessage());
            if (matcher.find()) {
                String group = matcher.group(3);
                String namespace = matcher.group(4);
                return matcher.group(1) + " " + matcher.group(2)
                        + (group == null || group.isEmpty() ? "" : " in API group \"" + group + "\"")
                        + (namespace == null ? "" : " in namespace " + namespace);
            }
            StatusDetails details =
                    error.getStatus() == null ? null : error.getStatus().getDetails();
            String kind = details == null || details.getKind() == null ? null : details.getKind();
            if (kind != null) {
                String group = details.getGroup();
                return (request == null ? "access" : request.split(" ")[0]) + " " + kind
                        + (group == null || group.isEmpty() ? "" : " in API group \"" + group + "\"");
            }
            return request == null ? "a request" : request;
        }

        /** The sentence a stalled run shows: which right is missing, and what to do. */
        String forbiddenMessage() {
            return "the API server refused the operator the right to " + refusedRight() + " ("
                    + serverMessage() + "). Grant that right to the operator's ServiceAccount (the stackbench Helm"
                    + " chart's RBAC has every right the operator uses); the run goes on once it is granted, or"
                    + " fails at spec.timeout";
        }

        /** The sentence a run failed by an invalid object shows: the server's message and the field to change. */
        String invalidMessage() {
            String what = object == null
                    ? "a request of this run"
                    : "the " + object.getKind() + " " + object.getMetadata().getName() + " this run needs";
            return "the API server refused " + what + " (HTTP " + code() + "): " + serverMessage() + ". "
                    + specFieldHint()
                            .map(field -> "It comes from " + field + ": correct it")
                            .orElse("Correct the" + " field of the spec it comes from")
                    + " and create the run again";
        }

        /** The sentence a run retrying a failed request shows. */
        String retryMessage() {
            return "the API server did not complete " + (request == null ? "a request of this run" : request)
                    + (code() > 0 ? " (HTTP " + code() + ")" : "") + ": " + serverMessage()
                    + "; the operator tries again: the run goes on once it succeeds, or fails at spec.timeout";
        }

        /** The field of the BenchmarkRun a refused field of one of its objects was made from, where it is clear. */
        Optional<String> specFieldHint() {
            String role = object == null || object.getMetadata().getLabels() == null
                    ? null
                    : object.getMetadata().getLabels().get(RunLabels.ROLE);
            String pool = role == null
                    ? null
                    : switch (role) {
                        case RunLabels.ROLE_TARGET -> "target";
                        case RunLabels.ROLE_DELAY_SERVICE -> "backend";
                        case RunLabels.ROLE_LOADGEN, RunLabels.ROLE_VERIFICATION -> "loadgen";
                        default -> null;
                    };
            String fields = String.join(" ", causeFields()) + " " + serverMessage();
            if (pool != null && fields.contains("nodeSelector")) {
                return Optional.of("spec.placement." + pool + ".nodeSelector");
            }
            if (pool != null && fields.contains("tolerations")) {
                return Optional.of("spec.placement." + pool + ".tolerations");
            }
            if (RunLabels.ROLE_TARGET.equals(role) && fields.contains(".env")) {
                return Optional.of("spec.target.env");
            }
            if (code() == TOO_LARGE && RunLabels.ROLE_LOADGEN.equals(role)) {
                return Optional.of("spec.workload.script (the k6 module is too large for a ConfigMap)");
            }
            return Optional.empty();
        }

        private List<String> causeFields() {
            return Optional.ofNullable(error.getStatus())
                    .map(Status::getDetails)
                    .map(StatusDetails::getCauses)
                    .orElse(List.of())
                    .stream()
                    .map(StatusCause::getField)
                    .filter(Objects::nonNull)
                    .toList();
        }
    }

    /** A request the operator made, named, failed by the API server; public for the stages of a run, which ask. */
    public static final class RequestFailed extends RuntimeException {

        private final String request;
        private final transient HasMetadata object;

        /** The request as {@link #describe} names it, the object it was about, and the client's failure. */
        public RequestFailed(String request, HasMetadata object, KubernetesClientException cause) {
            super(request + ": " + cause.getMessage(), cause);
            this.request = request;
            this.object = object;
        }
    }

    private ApiErrors() {}

    /** How to handle a failed reconcile step; empty when it did not fail on an API request (a bug: rethrow it). */
    static Optional<Failure> of(Throwable thrown) {
        String request = null;
        HasMetadata object = null;
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestFailed failed && request == null) {
                request = failed.request;
                object = failed.object;
            }
            if (cause instanceof KubernetesClientException error) {
                return Optional.of(new Failure(handling(error.getCode(), object != null), error, request, object));
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return Optional.empty();
    }

    /**
     * The one decision: which answers wait for a right, which fail the run, which are retried.
     *
     * @param writesObject whether the request created or changed one of the run's objects: only then does a 400,
     *     413 or 422 say the object (and so the spec) is wrong; reads answer 400 for passing states too, e.g. the
     *     log of a container still starting
     */
    static Handling handling(int code, boolean writesObject) {
        if (code == HttpURLConnection.HTTP_FORBIDDEN) {
            return Handling.WAIT_FOR_PERMISSION;
        }
        boolean refusedObject =
                code == HttpURLConnection.HTTP_BAD_REQUEST || code == TOO_LARGE || code == UNPROCESSABLE;
        return refusedObject && writesObject ? Handling.FAIL : Handling.RETRY;
    }

    /** "apply Deployment r-target". */
    public static String describe(String verb, HasMetadata object) {
        return verb + " " + object.getKind() + " " + object.getMetadata().getName();
    }

    private static String rootMessage(Throwable thrown) {
        Throwable root = thrown;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? thrown.getMessage() : root.getMessage();
    }
}
