package dev.stackbench.mvc.api;

import dev.stackbench.targets.common.ApiError;
import dev.stackbench.targets.common.ApiException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.client.RestClientException;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.reactive.function.client.WebClientException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns every refused request into the contract's error body. Spring MVC's own request errors (missing or
 * non-numeric parameters, unreadable JSON, wrong method) keep their 4xx status and get a message saying what to send.
 */
@RestControllerAdvice
class ApiErrorHandler extends ResponseEntityExceptionHandler {

    static final String BODY_EXAMPLES = "POST /api/orders takes {\"itemId\":42,\"quantity\":2}, "
            + "PUT /api/orders/{id}/status takes {\"status\":\"PAID\"}";

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ApiError> refused(ApiException e) {
        return ResponseEntity.status(e.status()).body(new ApiError(e.getMessage(), e.status(), e.lockWaitMs()));
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ApiError> notANumber(MethodArgumentTypeMismatchException e) {
        return error(
                HttpStatus.BAD_REQUEST,
                "parameter '" + e.getName() + "' must be a whole number, got '" + e.getValue() + "'");
    }

    @ExceptionHandler({RestClientException.class, WebClientException.class})
    ResponseEntity<ApiError> upstreamFailed(Exception e) {
        return error(
                HttpStatus.BAD_GATEWAY,
                "the delay service call failed (" + e.getMessage()
                        + "): check DELAY_SERVICE_URL and that the delay service is running");
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(
            HttpMessageNotReadableException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        Throwable cause = ex.getMostSpecificCause();
        String problem = cause == ex || cause.getMessage() == null
                ? "the body is missing"
                : cause.getMessage().lines().findFirst().orElse("");
        return ResponseEntity.status(status)
                .body(new ApiError(
                        "the request body is not valid JSON for this endpoint (" + problem + "): " + BODY_EXAMPLES,
                        status.value()));
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception ex, Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        String detail =
                ex instanceof ErrorResponse response && response.getBody().getDetail() != null
                        ? response.getBody().getDetail()
                        : ex.getMessage();
        return ResponseEntity.status(statusCode).headers(headers).body(new ApiError(detail, statusCode.value()));
    }

    private static ResponseEntity<ApiError> error(HttpStatus status, String message) {
        return ResponseEntity.status(status).body(new ApiError(message, status.value()));
    }
}
