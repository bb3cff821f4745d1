package dev.stackbench.k6;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** k6's threshold grammar, as k6 v1 accepts and refuses it when it starts. */
class ThresholdCheckTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "p(95)<500",
                "p(99.9)<=1000",
                "p(0)>=0",
                "avg < 200",
                "  max<1000  ",
                "med<300",
                "min>0",
                "rate<0.01",
                "count>0",
                "value<100",
                "avg<1e3",
                "avg<.5",
                "avg<5.",
                "avg<+5",
                "count==0",
                "count===0",
                "count!=0"
            })
    void acceptsWhatK6Accepts(String expression) {
        assertThat(ThresholdCheck.parse(expression)).as(expression).isPresent();
        assertThat(ThresholdCheck.problem(expression)).as(expression).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "p(95) < 1s       | the limit '1s' is not a plain number",
                "avg < 5 ms       | the limit '5 ms' is not a plain number",
                "p95<500          | 'p95' is not an aggregation",
                "mean<200         | 'mean' is not an aggregation",
                "p(101)<500       | 'p(101)' is not a percentile",
                "p(x)<500         | 'p(x)' is not a percentile",
                "avg=5            | it has no comparison",
                "avg              | it has no comparison",
                "avg<==5          | '<==' is not a comparison",
                "' '              | the expression is empty"
            })
    void explainsWhatIsWrong(String expression, String problem) {
        assertThat(ThresholdCheck.parse(expression)).as(expression).isEmpty();
        assertThat(ThresholdCheck.problem(expression)).as(expression).hasValueSatisfying(text -> assertThat(text)
                .startsWith(problem));
    }

    @ParameterizedTest
    @CsvSource({"p(95)<500, p(95), p, <, 500", "rate>=0.5, rate, rate, >=, 0.5", "count===3, count, count, ===, 3"})
    void readsTheParts(String expression, String aggregation, String method, String operator, double limit) {
        ThresholdCheck check = ThresholdCheck.parse(expression).orElseThrow();

        assertThat(check.aggregation()).isEqualTo(aggregation);
        assertThat(check.method()).isEqualTo(method);
        assertThat(check.operator()).isEqualTo(operator);
        assertThat(check.limit()).isEqualTo(limit);
    }
}
