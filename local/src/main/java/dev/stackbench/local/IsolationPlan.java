package dev.stackbench.local;

import java.util.List;

/**
 * Which CPUs each local process gets, and what that means for the result.
 *
 * @param targetCpus CPUs the target JVM is pinned to
 * @param supportCpus CPUs for k6, PostgreSQL and the delay service
 * @param activeProcessorCount what the target JVM is told it has (-XX:ActiveProcessorCount), as a pod
 *     with this CPU limit would see it; thread pools that scale with CPUs are sized from it
 * @param isolated true when the target shares no CPU with the processes that load or serve it
 * @param notes what could and could not be honoured, in words for the user
 */
public record IsolationPlan(
        CpuSet targetCpus, CpuSet supportCpus, int activeProcessorCount, boolean isolated, List<String> notes) {

    public IsolationPlan {
        notes = List.copyOf(notes);
    }
}
