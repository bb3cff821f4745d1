package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.report.RequestTimeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class K6CsvFollowerTest {

    private static final String HEADER = "metric_name,timestamp,metric_value,check,error,error_code,"
            + "expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,"
            + "extra_tags,metadata\n";

    @TempDir
    Path dir;

    @Test
    void splitsSamplesByScenarioAndReadsLinesCompletedLater() throws Exception {
        Path csv = dir.resolve("k6.csv");
        Files.writeString(
                csv,
                HEADER
                        + row("http_req_duration", 100, 12.5, "warmup", "200")
                        + row("http_req_duration", 110, 300.0, "measure", "200")
                        + row("http_req_failed", 110, 0, "measure", "200")
                        + "http_req_duration,110,310.0,,,,true,,GET,\"http://x/a,b\",HTTP/1.1,meas");
        K6CsvFollower follower = new K6CsvFollower(csv);

        follower.poll();
        assertThat(follower.timeline("warmup").totalRequests()).isEqualTo(1);
        assertThat(follower.timeline("measure").totalRequests()).isEqualTo(1);

        Files.writeString(
                csv,
                "ure,,200,,,http://x/,,\n"
                        + row("http_req_failed", 111, 1, "measure", "500")
                        + row("dropped_iterations", 111, 3, "measure", ""),
                StandardOpenOption.APPEND);
        follower.poll();

        RequestTimeline measure = follower.timeline("measure");
        assertThat(measure.totalRequests()).isEqualTo(2);
        assertThat(measure.totalFailed()).isEqualTo(1);
        assertThat(measure.totalDropped()).isEqualTo(3);
        assertThat(measure.points()).hasSize(2);
        assertThat(measure.points().get(0).p50Ms()).isBetween(299.0, 311.0);
    }

    @Test
    void missingFileIsNotAnErrorBeforeK6Starts() throws Exception {
        K6CsvFollower follower = new K6CsvFollower(dir.resolve("not-yet.csv"));

        follower.poll();

        assertThat(follower.timeline("measure").isEmpty()).isTrue();
    }

    private static String row(String metric, long second, double value, String scenario, String status) {
        return metric + "," + second + "," + value + ",,,,true,,GET,http://x/,HTTP/1.1," + scenario + ",," + status
                + ",,,http://x/,,\n";
    }
}
