package dev.stackbench.targets.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FanoutModesTest {

    private final FanoutModes webflux = FanoutModes.all("webflux-r2dbc", FanoutMode.PARALLEL);
    private final FanoutModes blocking = FanoutModes.only(
            "mvc-jdbc", FanoutMode.SEQUENTIAL, "makes its upstream calls with a blocking client on the request thread");

    @Test
    void runsTheDefaultWhenTheRequestNamesNoModeAndAnyModeItLists() {
        assertThat(webflux.modes()).containsExactly(FanoutMode.PARALLEL, FanoutMode.SEQUENTIAL);
        assertThat(webflux.choose(null)).isEqualTo(FanoutMode.PARALLEL);
        assertThat(webflux.choose("sequential")).isEqualTo(FanoutMode.SEQUENTIAL);
        assertThat(webflux.choose(" Parallel ")).isEqualTo(FanoutMode.PARALLEL);
        assertThat(FanoutModes.all("mvc-virtual-threads", FanoutMode.SEQUENTIAL).modes())
                .containsExactly(FanoutMode.SEQUENTIAL, FanoutMode.PARALLEL);
        assertThat(blocking.choose(null)).isEqualTo(FanoutMode.SEQUENTIAL);
        assertThat(FanoutMode.SEQUENTIAL.value()).isEqualTo("sequential");
    }

    @Test
    void refusesAModeTheVariantCannotRunSayingWhyAndWhatToSend() {
        assertThatThrownBy(() -> blocking.choose("parallel"))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessage("variant mvc-jdbc makes its upstream calls with a blocking client on the request thread"
                        + " and cannot run them in parallel: use mode=sequential or leave mode out");
    }

    @Test
    void refusesSomethingThatIsNotAModeNamingTheModes() {
        assertThatThrownBy(() -> webflux.choose("bogus"))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessage("mode must be parallel or sequential, got 'bogus': variant webflux-r2dbc runs parallel"
                        + " (its default, used when mode is left out) or sequential");
        assertThatThrownBy(() -> blocking.choose(""))
                .hasMessage("mode must be parallel or sequential, got '': variant mvc-jdbc runs sequential"
                        + " (its default, used when mode is left out)");
    }

    @Test
    void limitsTheCallsOfOneRequest() {
        assertThat(Limits.calls(100)).isEqualTo(100);
        assertThatThrownBy(() -> Limits.calls(0))
                .hasMessage("calls must be between 1 and 100 (upstream calls per request), got 0");
        assertThatThrownBy(() -> Limits.calls(101)).isInstanceOf(ApiException.class);
    }
}
