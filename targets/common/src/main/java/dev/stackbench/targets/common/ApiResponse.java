package dev.stackbench.targets.common;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The body of every successful answer. The common part (variant, operation, thread, virtual) lets a client see which
 * stack served the request and on which thread; the operation-specific fields are left out when they do not apply.
 * {@code protocol} ("http" or "rsocket") is how the operations that call the delay service (upstream, mixed, fanout)
 * reached it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApiResponse(
        String variant,
        String operation,
        String thread,
        boolean virtual,
        Integer delayMs,
        Integer sleepMs,
        Integer count,
        List<Item> items,
        Long orderId,
        String status,
        String mode,
        Double lockWaitMs,
        String protocol) {}
