package dev.stackbench.targets.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OrderStatusTest {

    @Test
    void followsTheOrderLifecycle() {
        assertThat(OrderStatus.NEW.moveTo(OrderStatus.PAID, 1)).isEqualTo(OrderStatus.PAID);
        assertThat(OrderStatus.PAID.moveTo(OrderStatus.SHIPPED, 1)).isEqualTo(OrderStatus.SHIPPED);
        assertThat(OrderStatus.NEW.moveTo(OrderStatus.CANCELLED, 1)).isEqualTo(OrderStatus.CANCELLED);
        assertThat(OrderStatus.PAID.moveTo(OrderStatus.CANCELLED, 1)).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void refusesATransitionThatIsNoLongerAllowedWithAConflict() {
        assertThatThrownBy(() -> OrderStatus.PAID.moveTo(OrderStatus.PAID, 17))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.status()).isEqualTo(409))
                .hasMessage("order 17 is PAID and cannot move to PAID; allowed from PAID: SHIPPED, CANCELLED");
        assertThatThrownBy(() -> OrderStatus.SHIPPED.moveTo(OrderStatus.CANCELLED, 3))
                .hasMessageContaining("none, it is final");
    }

    @Test
    void refusesSomethingThatIsNotAStatusWithABadRequest() {
        assertThat(OrderStatus.parse("paid")).isEqualTo(OrderStatus.PAID);
        assertThatThrownBy(() -> OrderStatus.parse("LOST"))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessage("status must be one of NEW, PAID, SHIPPED, CANCELLED, got 'LOST'");
        assertThatThrownBy(() -> OrderStatus.parse(null)).hasMessageContaining("{\"status\":\"PAID\"}");
    }

    @Test
    void checksTheContractLimits() {
        assertThat(Limits.count(10_000)).isEqualTo(10_000);
        assertThatThrownBy(() -> Limits.count(0))
                .hasMessage("count must be between 1 and 10000 (rows of the seeded items table), got 0");
        assertThatThrownBy(() -> Limits.delayMs(-1)).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> new OrderRequests.CreateOrder(42L, null).validated())
                .hasMessageContaining("{\"itemId\":42,\"quantity\":2}");
    }
}
