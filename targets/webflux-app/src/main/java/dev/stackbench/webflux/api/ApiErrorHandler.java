package dev.stackbench.webflux.api;

import dev.stackbench.targets.common.ApiError;
import dev.stackbench.targets.common.ApiException;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.codec.DecodingException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.function.client.WebClientException;
import org.springframework.web.reactive.result.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import reactor.core.publisher.Mono;

/**
 * Turns every refused request into the contract's error body. WebFlux's own request errors (missing or non-numeric
 * parameters, unreadable JSON, wrong method) keep their 4xx status and get a message saying what to send.
 */
@RestControllerAdvice
class ApiErrorHandler extends ResponseEntityExceptionHandler {

    static final String BODY_EXAMPLES = "POST /api/orders takes {\"itemId\":42,\"quantity\":2}, "
            + "PUT /api/orders/{id}/status takes {\"status\":\"PAID\"}";

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ApiError> refused(ApiException e) {
        return ResponseEntity.status(e.status()).body(new ApiError(e.getMessage(), e.status(), e.lockWaitMs()));
    }

    @ExceptionHandler(WebClientException.class)
    ResponseEntity<ApiError> upstreamFailed(WebClientException e) {
        HttpStatus status = HttpStatus.BAD_GATEWAY;
        return ResponseEntity.status(status)
                .body(new ApiError(
                        "the delay service call failed (" + e.getMessage()
                                + "): check DELAY_SERVICE_URL and that the delay service is running",
                        status.value()));
    }

    @Override
    protected Mono<ResponseEntity<Object>> handleExceptionInternal(
            Exception ex, Object body, HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
        return Mono.just(
                ResponseEntity.status(status).headers(headers).body(new ApiError(describe(ex), status.value())));
    }

    private static String describe(Exception ex) {
        if (ex instanceof ServerWebInputException input) {
            if (input.getCause() instanceof TypeMismatchException mismatch && input.getMethodParameter() != null) {
                return "parameter '" + input.getMethodParameter().getParameterName() + "' must be a whole number, got '"
                        + mismatch.getValue() + "'";
            }
            if (input.getCause() instanceof DecodingException decoding) {
                String problem = String.valueOf(decoding.getMostSpecificCause().getMessage())
                        .lines()
                        .findFirst()
                        .orElse("");
                if (problem.startsWith("No request body")) {
                    problem = "the body is missing";
                }
                return "the request body is not valid JSON for this endpoint (" + problem + "): " + BODY_EXAMPLES;
            }
        }
        if (ex instanceof ErrorResponse response && response.getBody().getDetail() != null) {
            return response.getBody().getDetail();
        }
        return ex.getMessage();
    }
}
