package dev.stackbench.targets.common;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The body of every error answer: what was wrong and what to send instead, plus the HTTP status. A status change
 * refused with a conflict also reports how long it waited for the order's row lock ({@code lockWaitMs}); the field is
 * left out of every other error.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApiError(String error, int status, Double lockWaitMs) {

    public ApiError(String error, int status) {
        this(error, status, null);
    }
}
