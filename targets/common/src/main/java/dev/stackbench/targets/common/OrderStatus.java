package dev.stackbench.targets.common;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The life of an order: NEW -> PAID -> SHIPPED, and NEW or PAID -> CANCELLED. */
public enum OrderStatus {
    NEW,
    PAID,
    SHIPPED,
    CANCELLED;

    public Set<OrderStatus> next() {
        return switch (this) {
            case NEW -> EnumSet.of(PAID, CANCELLED);
            case PAID -> EnumSet.of(SHIPPED, CANCELLED);
            case SHIPPED, CANCELLED -> EnumSet.noneOf(OrderStatus.class);
        };
    }

    /** Parses a requested status, refusing anything that is not a status with a 400 that lists the valid ones. */
    public static OrderStatus parse(String requested) {
        if (requested == null || requested.isBlank()) {
            throw ApiException.badRequest(
                    "status is required: send a body like {\"status\":\"PAID\"} with one of " + names());
        }
        try {
            return valueOf(requested.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("status must be one of " + names() + ", got '" + requested + "'");
        }
    }

    /** Checks that an order in this status may move to {@code target}, answering 409 when it may not (any more). */
    public OrderStatus moveTo(OrderStatus target, long orderId) {
        if (!next().contains(target)) {
            String allowed = next().isEmpty() ? "none, it is final" : names(next());
            throw ApiException.conflict("order " + orderId + " is " + this + " and cannot move to " + target
                    + "; allowed from " + this + ": " + allowed);
        }
        return target;
    }

    private static String names() {
        return names(EnumSet.allOf(OrderStatus.class));
    }

    private static String names(Set<OrderStatus> statuses) {
        return Arrays.stream(values())
                .filter(statuses::contains)
                .map(Enum::name)
                .collect(Collectors.joining(", "));
    }
}
