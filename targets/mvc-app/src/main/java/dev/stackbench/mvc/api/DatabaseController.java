package dev.stackbench.mvc.api;

import dev.stackbench.targets.common.ApiResponse;
import dev.stackbench.targets.common.ApiResponses;
import dev.stackbench.targets.common.JdbcStore;
import dev.stackbench.targets.common.Limits;
import dev.stackbench.targets.common.OrderRequests.ChangeStatus;
import dev.stackbench.targets.common.OrderRequests.CreateOrder;
import dev.stackbench.targets.common.StatusChange;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The database endpoints of every MVC variant: plain blocking JDBC on the request thread, a Tomcat platform thread
 * or, with virtual threads enabled, a virtual thread.
 */
@RestController
@RequestMapping("/api")
class DatabaseController {

    private final JdbcStore store;
    private final ApiResponses responses;

    DatabaseController(JdbcStore store, ApiResponses responses) {
        this.store = store;
        this.responses = responses;
    }

    @GetMapping("/db")
    ApiResponse db(@RequestParam int sleepMs) {
        store.sleep(Limits.sleepMs(sleepMs));
        return responses.db(sleepMs);
    }

    @GetMapping("/rows")
    ApiResponse rows(@RequestParam int count) {
        return responses.rows(store.items(Limits.count(count)));
    }

    @PostMapping("/orders")
    @ResponseStatus(HttpStatus.CREATED)
    ApiResponse createOrder(@RequestBody CreateOrder order) {
        return responses.orderCreated(store.createOrder(order.validated()));
    }

    @PutMapping("/orders/{orderId}/status")
    ApiResponse changeStatus(@PathVariable long orderId, @RequestBody ChangeStatus change) {
        StatusChange changed = store.changeStatus(orderId, change.target());
        return responses.orderStatus(orderId, changed);
    }
}
