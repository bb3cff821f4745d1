package dev.stackbench.local;

import dev.stackbench.api.run.BenchmarkRunSpec;
import dev.stackbench.results.ActuatorInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything needed to reproduce a local run and to judge how fair it was, written as environment.json next to the
 * status and shown in the HTML report. Values the run never reached (it failed early) are null.
 *
 * @param machineCpus every CPU this process could use
 * @param targetCpus CPUs the target was pinned to
 * @param supportCpus CPUs k6, PostgreSQL and the delay service shared
 * @param targetJavaToolOptions the JVM options the target ran with (JAVA_TOOL_OPTIONS), as on a cluster
 * @param startedPids every process the run started (all stopped when it ended)
 */
public record LocalManifest(
        String run,
        String variant,
        String host,
        String kernel,
        String cpuModel,
        String machineCpus,
        String targetCpus,
        String supportCpus,
        int targetActiveProcessorCount,
        boolean isolated,
        List<String> isolationNotes,
        String loadAverageBefore,
        String loadAverageAfter,
        String postgresVersion,
        Long postgresPid,
        String postgresDataDir,
        Long delayServicePid,
        Long targetPid,
        String targetCommand,
        String targetJavaToolOptions,
        ActuatorInfo targetInfo,
        Integer threadPoolSize,
        String k6Command,
        String k6Version,
        List<Long> startedPids,
        BenchmarkRunSpec spec) {

    /** The facts as labelled rows for the report, in the order above, leaving out what the run never reached. */
    public Map<String, Object> rows() {
        Map<String, Object> rows = new LinkedHashMap<>();
        rows.put("run", run);
        rows.put("variant", variant);
        rows.put("host", host);
        rows.put("kernel", kernel);
        rows.put("CPU model", cpuModel);
        rows.put("machine CPUs", machineCpus);
        rows.put("target CPUs", targetCpus);
        rows.put("k6, PostgreSQL and delay service CPUs", supportCpus);
        rows.put("target JVM processors", targetActiveProcessorCount);
        rows.put("isolated", isolated);
        rows.put("load average before", loadAverageBefore);
        rows.put("load average after", loadAverageAfter);
        rows.put("PostgreSQL", postgresVersion);
        rows.put("PostgreSQL data directory (kept)", postgresDataDir);
        rows.put("target command", targetCommand);
        rows.put("target JAVA_TOOL_OPTIONS", targetJavaToolOptions);
        rows.put("target Java", targetInfo == null ? null : targetInfo.javaVersion());
        rows.put("target Spring Boot", targetInfo == null ? null : targetInfo.springBootVersion());
        rows.put("request pool threads", threadPoolSize);
        rows.put("k6 command", k6Command);
        rows.put("k6 version", k6Version);
        rows.put("started processes", startedPids);
        rows.values().removeIf(java.util.Objects::isNull);
        return rows;
    }
}
