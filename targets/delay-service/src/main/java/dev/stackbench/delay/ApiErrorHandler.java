package dev.stackbench.delay;

import dev.stackbench.targets.common.ApiError;
import dev.stackbench.targets.common.ApiException;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.result.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import reactor.core.publisher.Mono;

/** Every refused request answers with the contract's error body, saying what was wrong. */
@RestControllerAdvice
class ApiErrorHandler extends ResponseEntityExceptionHandler {

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ApiError> refused(ApiException e) {
        return ResponseEntity.status(e.status()).body(new ApiError(e.getMessage(), e.status()));
    }

    @Override
    protected Mono<ResponseEntity<Object>> handleExceptionInternal(
            Exception ex, Object body, HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
        return Mono.just(
                ResponseEntity.status(status).headers(headers).body(new ApiError(describe(ex), status.value())));
    }

    private static String describe(Exception ex) {
        if (ex instanceof ServerWebInputException input
                && input.getCause() instanceof TypeMismatchException mismatch
                && input.getMethodParameter() != null) {
            return "parameter '" + input.getMethodParameter().getParameterName() + "' must be a whole number, got '"
                    + mismatch.getValue() + "': send GET /delay?ms=N with 0 <= N <= 60000";
        }
        if (ex instanceof ErrorResponse response && response.getBody().getDetail() != null) {
            return response.getBody().getDetail() + " Send GET /delay?ms=N with 0 <= N <= 60000";
        }
        return ex.getMessage();
    }
}
