package dev.stackbench.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One decision for every failed request: wait for a right, fail the run, or retry. */
class ApiErrorsTest {

    private static final Deployment TARGET = new DeploymentBuilder()
            .withMetadata(new ObjectMetaBuilder()
                    .withName("r-target")
                    .withNamespace("runs")
                    .withLabels(Map.of(RunLabels.ROLE, RunLabels.ROLE_TARGET))
                    .build())
            .build();

    private static KubernetesClientException answer(int code, String reason, String message, String kind) {
        Status status = new StatusBuilder()
                .withCode(code)
                .withReason(reason)
                .withMessage(message)
                .withNewDetails()
                .withKind(kind)
                .withGroup("apps")
                .endDetails()
                .build();
        return new KubernetesClientException(status);
    }

    private static ApiErrors.Failure applyFailed(KubernetesClientException error) {
        RuntimeException thrown = new ApiErrors.RequestFailed(ApiErrors.describe("apply", TARGET), TARGET, error);
        return ApiErrors.of(thrown).orElseThrow();
    }

    @Test
    void aRefusedCreateWaitsNamingTheVerbAndTheResource() {
        ApiErrors.Failure failure = applyFailed(answer(
                403,
                "Forbidden",
                "deployments.apps \"r-target\" is forbidden: User \"system:serviceaccount:op:stackbench-op\" cannot"
                        + " create resource \"deployments\" in API group \"apps\" in the namespace \"runs\"",
                "deployments"));

        assertThat(failure.handling()).isEqualTo(ApiErrors.Handling.WAIT_FOR_PERMISSION);
        assertThat(failure.refusedRight()).isEqualTo("create deployments in API group \"apps\" in namespace runs");
        assertThat(failure.forbiddenMessage())
                .startsWith("the API server refused the operator the right to create deployments")
                .contains("Grant that right to the operator's ServiceAccount", "spec.timeout");
    }

    @Test
    void aRefusedReadOfTheCoreGroupIsNamedWithoutAGroup() {
        ApiErrors.Failure failure = ApiErrors.of(answer(
                        403,
                        "Forbidden",
                        "pods \"r-k6-1-abc\" is forbidden: User \"system:serviceaccount:op:stackbench-op\" cannot get"
                                + " resource \"pods/log\" in API group \"\" in the namespace \"runs\"",
                        "pods"))
                .orElseThrow();

        assertThat(failure.handling()).isEqualTo(ApiErrors.Handling.WAIT_FOR_PERMISSION);
        assertThat(failure.refusedRight()).isEqualTo("get pods/log in namespace runs");
    }

    @Test
    void anInvalidObjectFailsTheRunWithTheServersMessageAndTheSpecField() {
        ApiErrors.Failure failure = applyFailed(answer(
                422,
                "Invalid",
                "Deployment.apps \"r-target\" is invalid: spec.template.spec.nodeSelector: Invalid value:"
                        + " \"not valid!\": a valid label must be an empty string or consist of alphanumeric"
                        + " characters",
                "Deployment"));

        assertThat(failure.handling()).isEqualTo(ApiErrors.Handling.FAIL);
        assertThat(failure.invalidMessage())
                .startsWith("the API server refused the Deployment r-target this run needs (HTTP 422): Deployment.apps")
                .contains("spec.template.spec.nodeSelector: Invalid value: \"not valid!\"")
                .contains("It comes from spec.placement.target.nodeSelector: correct it and create the run again");
    }

    @ParameterizedTest
    @CsvSource({
        "400, true, FAIL",
        "413, true, FAIL",
        "422, true, FAIL",
        "400, false, RETRY",
        "404, true, RETRY",
        "404, false, RETRY",
        "409, true, RETRY",
        "429, false, RETRY",
        "500, true, RETRY",
        "503, false, RETRY",
        "0, false, RETRY",
        "403, false, WAIT_FOR_PERMISSION",
        "403, true, WAIT_FOR_PERMISSION"
    })
    void decidesOnceForEveryAnswer(int code, boolean writesObject, ApiErrors.Handling handling) {
        assertThat(ApiErrors.handling(code, writesObject)).isEqualTo(handling);
    }

    @Test
    void aLostConnectionIsRetriedSayingWhatWasAsked() {
        ApiErrors.Failure failure = applyFailed(
                new KubernetesClientException("Operation: [patch] failed", new IOException("connection reset")));

        assertThat(failure.handling()).isEqualTo(ApiErrors.Handling.RETRY);
        assertThat(failure.retryMessage())
                .startsWith("the API server did not complete apply Deployment r-target: connection reset")
                .endsWith("the run goes on once it succeeds, or fails at spec.timeout");
    }

    @Test
    void aFailureThatIsNoApiRequestIsLeftToTheCaller() {
        assertThat(ApiErrors.of(new IllegalStateException("a bug", new NullPointerException())))
                .isEmpty();
        assertThat(ApiErrors.of(new IllegalStateException("wrapped", answer(500, "InternalError", "etcd", null))))
                .hasValueSatisfying(failure -> assertThat(failure.handling()).isEqualTo(ApiErrors.Handling.RETRY));
    }
}
