package persecond

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"go.k6.io/k6/metrics"
)

// forgetPlan undoes what a test's countLatencies and Start left in the package, for the next test.
func forgetPlan(t *testing.T) {
	t.Helper()
	plan.Store(nil)
	running.Store(nil)
	t.Cleanup(func() {
		plan.Store(nil)
		running.Store(nil)
	})
}

// TestLatenciesAreCountedInTheScriptsBucketsForItsScenarioOnly feeds the durations of two scenarios and checks the
// counts handleSummary would read: only the planned scenario's, each in the bucket the script's own formula gives.
func TestLatenciesAreCountedInTheScriptsBucketsForItsScenarioOnly(t *testing.T) {
	forgetPlan(t)
	if _, err := latencyBuckets(); err == nil || !strings.Contains(err.Error(), "--out stackbench") {
		t.Fatalf("without the output running, latencyBuckets must say how to run k6; got %v", err)
	}
	if err := countLatencies("measure", 0.1, 1.04, 357); err != nil {
		t.Fatal(err)
	}
	// Every VU asks again with the same buckets: accepted.
	if err := countLatencies("measure", 0.1, 1.04, 357); err != nil {
		t.Fatal(err)
	}
	if err := countLatencies("measure", 0.1, 1.05, 357); err == nil || !strings.Contains(err.Error(), "1.04") {
		t.Fatalf("a second, different set of buckets must be refused naming the first; got %v", err)
	}
	if err := countLatencies("", 0.1, 1.04, 0); err == nil {
		t.Fatal("no scenario and no buckets must be refused")
	}

	registry := metrics.NewRegistry()
	builtin := metrics.RegisterBuiltinMetrics(registry)
	measure := registry.RootTagSet().With("scenario", "measure")
	warmup := registry.RootTagSet().With("scenario", "warmup")
	base := time.Unix(1_800_000_000, 0)
	duration := func(tags *metrics.TagSet, millis float64) metrics.Sample {
		return metrics.Sample{
			TimeSeries: metrics.TimeSeries{Metric: builtin.HTTPReqDuration, Tags: tags}, Time: base, Value: millis,
		}
	}
	out := newOutput(filepath.Join(t.TempDir(), "per-second.ndjson"), logrus.New(), func() time.Time { return base })
	if err := out.Start(); err != nil {
		t.Fatal(err)
	}
	// 0.05 ms and exactly the lowest bound go to bucket 0; 0.104 ms is the start of bucket 1; 150 s is beyond the
	// last bucket's lower bound and stays in it; a warmup request is not counted.
	values := []float64{0.05, 0.1, 0.104 + 1e-9, 10, 10, 312.5, 150_000}
	samples := metrics.Samples{duration(warmup, 10)}
	for _, v := range values {
		samples = append(samples, duration(measure, v))
	}
	out.AddMetricSamples([]metrics.SampleContainer{samples})
	if err := out.Stop(); err != nil {
		t.Fatal(err)
	}

	counts, err := latencyBuckets()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	for _, v := range values {
		want[strconv.Itoa(scriptBucket(v, 0.1, 1.04, 357))]++
	}
	if len(counts) != len(want) {
		t.Fatalf("counts %v, want %v", counts, want)
	}
	for bucket, n := range want {
		if counts[bucket] != n {
			t.Fatalf("bucket %s holds %d, want %d (all: %v)", bucket, counts[bucket], n, counts)
		}
	}
	if counts["0"] != 2 || counts["1"] != 1 || counts["356"] != 1 {
		t.Fatalf("the edges are wrong: %v", counts)
	}
}

// scriptBucket is the generated script's formula, written as it is there.
func scriptBucket(ms, minMs, growth float64, count int) int {
	index := 0.0
	if ms > minMs {
		index = math.Floor(math.Log(ms/minMs) / math.Log(growth))
	}
	if index < float64(count-1) {
		return int(index)
	}
	return count - 1
}
