package dev.stackbench.suites;

import dev.stackbench.chart.RealNodesRelease;
import java.io.IOException;
import org.junit.platform.suite.api.AfterSuite;
import org.junit.platform.suite.api.BeforeSuite;
import org.junit.platform.suite.api.SelectClasses;
import org.junit.platform.suite.api.Suite;
import org.junit.platform.suite.api.SuiteDisplayName;

/**
 * The end-to-end tests on the test cluster with real nodes (they need root and the image tars of this build; they skip
 * without root except under CI), in one test JVM beside {@link FakeNodesSuite} in the other. One cluster serves the
 * last three classes: FaultsE2E hands it to RealNodesE2E, which hands it to MonitoringE2E (their comparisons and runs
 * deleted), and MonitoringE2E switches the monitoring stack on with {@code helm upgrade} rather than starting a cluster
 * of its own.
 */
@Suite
@SuiteDisplayName("end-to-end tests on real nodes")
@SelectClasses(
        names = {
            "dev.stackbench.testcluster.RealNodeLeftoversE2E",
            "dev.stackbench.chart.FaultsE2E",
            "dev.stackbench.chart.RealNodesE2E",
            "dev.stackbench.chart.MonitoringE2E"
        })
public class RealNodesSuite {

    @BeforeSuite
    static void handClustersOver() {
        RealNodesRelease.handOverBetweenClasses();
    }

    @AfterSuite
    static void stopAClusterNoClassTook() throws IOException {
        RealNodesRelease.stopHandedOver();
    }
}
