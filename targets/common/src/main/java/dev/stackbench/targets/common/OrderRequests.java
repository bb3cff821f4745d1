package dev.stackbench.targets.common;

/** The request bodies of the order endpoints and their checks. Boxed fields so a missing field is a clear 400. */
public final class OrderRequests {

    private OrderRequests() {}

    public record CreateOrder(Long itemId, Integer quantity) {

        /** Returns this request after checking it, or throws a 400 that shows a valid body. */
        public CreateOrder validated() {
            if (itemId == null || quantity == null) {
                throw ApiException.badRequest(
                        "itemId and quantity are required: send a body like " + "{\"itemId\":42,\"quantity\":2}");
            }
            Limits.quantity(quantity);
            return this;
        }
    }

    public record ChangeStatus(String status) {

        public OrderStatus target() {
            return OrderStatus.parse(status);
        }
    }

    public static ApiException unknownItem(long itemId) {
        return ApiException.notFound(
                "item " + itemId + " does not exist: use an itemId between 1 and " + Limits.MAX_ROWS);
    }

    public static ApiException unknownOrder(long orderId) {
        return ApiException.notFound("order " + orderId + " does not exist: create one with POST /api/orders");
    }
}
