package dev.stackbench.targets.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class StatusChangeTest {

    private static final long FIVE_MS = 5_000_000;

    @Test
    void measuresTheLockWaitFromTheMomentTheStatementWasSent() {
        StatusChange change = StatusChange.afterLock("NEW", System.nanoTime() - FIVE_MS, OrderStatus.PAID, 1);
        assertThat(change.status()).isEqualTo(OrderStatus.PAID);
        assertThat(change.lockWaitMs()).isGreaterThanOrEqualTo(5.0).isLessThan(60_000.0);
        assertThat(change.lockWaitMs() * 1_000)
                .as("whole microseconds")
                .isCloseTo(Math.rint(change.lockWaitMs() * 1_000), Offset.offset(1e-6));
    }

    @Test
    void aChangeNoLongerAllowedIsTheUsualConflictWithTheLockWait() {
        assertThatThrownBy(() -> StatusChange.afterLock("PAID", System.nanoTime() - FIVE_MS, OrderStatus.PAID, 17))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.lockWaitMs()).isGreaterThanOrEqualTo(5.0);
                })
                .hasMessage("order 17 is PAID and cannot move to PAID; allowed from PAID: SHIPPED, CANCELLED");
        assertThat(ApiException.conflict("any other conflict").lockWaitMs()).isNull();
    }
}
