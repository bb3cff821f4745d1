package dev.stackbench.suites;

import org.junit.platform.suite.api.SelectClasses;
import org.junit.platform.suite.api.Suite;
import org.junit.platform.suite.api.SuiteDisplayName;

/**
 * The end-to-end tests on the test cluster with real nodes (they need root and the image tars of this build; they skip
 * without root except under CI), in one test JVM beside {@link FakeNodesSuite} in the other.
 */
@Suite
@SuiteDisplayName("end-to-end tests on real nodes")
@SelectClasses(
        names = {
            "dev.stackbench.testcluster.RealNodeLeftoversE2E",
            "dev.stackbench.chart.FaultsE2E",
            "dev.stackbench.chart.MonitoringE2E",
            "dev.stackbench.chart.RealNodesE2E"
        })
public class RealNodesSuite {}
