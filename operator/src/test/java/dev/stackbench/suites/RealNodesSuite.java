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
 * without root except under CI), in one test JVM beside {@link FakeNodesSuite} in the other. FaultsE2E hands its
 * cluster to RealNodesE2E (its runs deleted) rather than both starting one; MonitoringE2E, installed with the
 * monitoring stack, has its own.
 */
@Suite
@SuiteDisplayName("end-to-end tests on real nodes")
@SelectClasses(
        names = {
            "dev.stackbench.testcluster.RealNodeLeftoversE2E",
            "dev.stackbench.chart.MonitoringE2E",
            "dev.stackbench.chart.FaultsE2E",
            "dev.stackbench.chart.RealNodesE2E"
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
