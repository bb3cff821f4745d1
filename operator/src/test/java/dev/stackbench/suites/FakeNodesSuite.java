package dev.stackbench.suites;

import org.junit.platform.suite.api.SelectClasses;
import org.junit.platform.suite.api.Suite;
import org.junit.platform.suite.api.SuiteDisplayName;

/**
 * The operator's integration tests on the fake-node (kwok) test cluster, in one test JVM beside {@link RealNodesSuite}
 * in the other. The classes whose figures are not judged run first, while the other JVM starts its real-node cluster
 * and runs its own such tests; the measuring classes ({@code @MeasuresOnAQuietMachine}) come last and each waits for
 * the machine to be quiet. The order is each class's {@code @Order} (junit-platform.properties).
 */
@Suite
@SuiteDisplayName("operator integration tests on fake nodes")
@SelectClasses(
        names = {
            "dev.stackbench.testcluster.TestClusterIT",
            "dev.stackbench.operator.BenchmarkRunValidationIT",
            "dev.stackbench.operator.RealK6OperatorIT",
            "dev.stackbench.operator.BenchmarkRunLeaderElectionIT",
            "dev.stackbench.operator.BenchmarkRunFailuresIT",
            "dev.stackbench.chart.ChartRenderIT",
            "dev.stackbench.chart.ShippedHelmValuesIT",
            "dev.stackbench.chart.ImageTarsIT",
            "dev.stackbench.chart.ChartInstallIT",
            "dev.stackbench.chart.OperatorUnderChartRbacIT",
            "dev.stackbench.operator.BoundedCollectionIT",
            "dev.stackbench.operator.BenchmarkRunLoadIT",
            "dev.stackbench.operator.BenchmarkComparisonIT",
            "dev.stackbench.operator.ModeParityIT"
        })
public class FakeNodesSuite {}
