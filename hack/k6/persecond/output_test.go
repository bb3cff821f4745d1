package persecond

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"go.k6.io/k6/metrics"
)

// TestBucketsAreContiguousAndNarrow checks that every latency lands in the bucket whose bounds hold it, that buckets
// follow each other without gaps, and that none is wider than 1/64 of its lower bound.
func TestBucketsAreContiguousAndNarrow(t *testing.T) {
	previous := -1
	for micros := uint64(0); micros < 5_000_000; micros += 1 + micros/1000 {
		bucket := bucketOf(micros)
		if bucket < previous {
			t.Fatalf("bucket of %d µs is %d, below the bucket of a smaller latency (%d)", micros, bucket, previous)
		}
		lower, upper := bucketLowerMicros(bucket), bucketLowerMicros(bucket+1)
		if micros < lower || micros >= upper {
			t.Fatalf("%d µs is in bucket %d, which holds [%d, %d)", micros, bucket, lower, upper)
		}
		if lower >= exactMicros && float64(upper-lower) > float64(lower)/subBuckets {
			t.Fatalf("bucket %d [%d, %d) is wider than 1/%d of its lower bound", bucket, lower, upper, subBuckets)
		}
		previous = bucket
	}
}

// TestSamplesAreBinnedByTheirOwnTimeStamps feeds samples whose time stamps lie in three seconds, in one batch and out
// of order, as k6 hands over requests that completed at different times, and reads the file the output writes.
func TestSamplesAreBinnedByTheirOwnTimeStamps(t *testing.T) {
	registry := metrics.NewRegistry()
	builtin := metrics.RegisterBuiltinMetrics(registry)
	measure := registry.RootTagSet().With("scenario", "measure")
	warmup := registry.RootTagSet().With("scenario", "warmup")
	base := time.Unix(1_800_000_000, 0)
	at := func(millis int) time.Time { return base.Add(time.Duration(millis) * time.Millisecond) }
	sample := func(metric *metrics.Metric, tags *metrics.TagSet, when time.Time, value float64) metrics.Sample {
		return metrics.Sample{TimeSeries: metrics.TimeSeries{Metric: metric, Tags: tags}, Time: when, Value: value}
	}
	request := func(tags *metrics.TagSet, when time.Time, millis float64, failed bool) metrics.SampleContainer {
		failure := 0.0
		if failed {
			failure = 1
		}
		return metrics.ConnectedSamples{Tags: tags, Time: when, Samples: []metrics.Sample{
			sample(builtin.HTTPReqs, tags, when, 1),
			sample(builtin.HTTPReqDuration, tags, when, millis),
			sample(builtin.HTTPReqFailed, tags, when, failure),
			sample(builtin.HTTPReqWaiting, tags, when, millis),
		}}
	}

	path := filepath.Join(t.TempDir(), "per-second.ndjson")
	out := newOutput(path, logrus.New(), func() time.Time { return base })
	if err := out.Start(); err != nil {
		t.Fatal(err)
	}
	out.AddMetricSamples([]metrics.SampleContainer{
		request(measure, at(1999), 10, false),
		request(measure, at(1000), 20, true),
		request(warmup, at(999), 5, false),
		request(measure, at(2000), 1000, false),
		metrics.Samples{sample(builtin.DroppedIterations, measure, at(2500), 1)},
	})
	// A request whose sample arrives after its second was written adds a second line for that second.
	out.flushBefore(base.Unix() + 2)
	out.AddMetricSamples([]metrics.SampleContainer{request(measure, at(1500), 30, false)})
	if err := out.Stop(); err != nil {
		t.Fatal(err)
	}

	got := readSeconds(t, path)
	want := map[int64]map[string]counts{
		base.Unix():     {"warmup": {Requests: 1}},
		base.Unix() + 1: {"measure": {Requests: 3, Failed: 1}},
		base.Unix() + 2: {"measure": {Requests: 1, Dropped: 1}},
	}
	if len(got) != len(want) {
		t.Fatalf("seconds written: %v, want %v", got, want)
	}
	for second, scenarios := range want {
		for scenario, w := range scenarios {
			g := got[second][scenario]
			if g.Requests != w.Requests || g.Failed != w.Failed || g.Dropped != w.Dropped {
				t.Errorf("second %d, %s: %+v, want %+v", second-base.Unix(), scenario, g, w)
			}
		}
	}
	latencies := got[base.Unix()+1]["measure"].Latency
	for _, millis := range []float64{10, 20, 30} {
		if latencies[bucketOf(uint64(millis*1000))] != 1 {
			t.Errorf("second 1 has no latency of %v ms in its buckets %v", millis, latencies)
		}
	}
	if n := got[base.Unix()+2]["measure"].Latency[bucketOf(1_000_000)]; n != 1 {
		t.Errorf("second 2 counts %d latencies of 1 s, want 1", n)
	}
}

// readSeconds sums the lines of the file by second and scenario, as the Java reader does.
func readSeconds(t *testing.T, path string) map[int64]map[string]counts {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	return sumSeconds(t, file)
}

// sumSeconds sums JSON lines by second and scenario.
func sumSeconds(t *testing.T, in io.Reader) map[int64]map[string]counts {
	t.Helper()
	seconds := map[int64]map[string]counts{}
	scanner := bufio.NewScanner(in)
	for scanner.Scan() {
		var l struct {
			Second    int64 `json:"second"`
			Scenarios map[string]struct {
				Requests int64            `json:"requests"`
				Failed   int64            `json:"failed"`
				Dropped  int64            `json:"dropped"`
				Latency  map[string]int64 `json:"latency"`
			} `json:"scenarios"`
		}
		if err := json.Unmarshal(scanner.Bytes(), &l); err != nil {
			t.Fatalf("line %q: %v", scanner.Text(), err)
		}
		if seconds[l.Second] == nil {
			seconds[l.Second] = map[string]counts{}
		}
		for scenario, s := range l.Scenarios {
			c := seconds[l.Second][scenario]
			c.Requests += s.Requests
			c.Failed += s.Failed
			c.Dropped += s.Dropped
			if c.Latency == nil {
				c.Latency = map[int]int64{}
			}
			for bucket, n := range s.Latency {
				index, err := strconv.Atoi(bucket)
				if err != nil {
					t.Fatalf("latency bucket %q is not a number", bucket)
				}
				c.Latency[index] += n
			}
			seconds[l.Second][scenario] = c
		}
	}
	return seconds
}

// TestSecondsGoToTheLogWhenK6Stops: with "-" nothing is written while k6 runs, and when it stops one line on standard
// output, the prefix and then the JSON lines gzip-compressed and base64-encoded, holds every second.
func TestSecondsGoToTheLogWhenK6Stops(t *testing.T) {
	registry := metrics.NewRegistry()
	builtin := metrics.RegisterBuiltinMetrics(registry)
	measure := registry.RootTagSet().With("scenario", "measure")
	base := time.Unix(1_800_000_000, 0)
	var stdout bytes.Buffer
	out := newOutput(ToLog, logrus.New(), func() time.Time { return base.Add(10 * time.Second) })
	out.stdout = &stdout
	if err := out.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		when := base.Add(time.Duration(i) * 10 * time.Millisecond)
		out.AddMetricSamples([]metrics.SampleContainer{metrics.Samples{
			{TimeSeries: metrics.TimeSeries{Metric: builtin.HTTPReqs, Tags: measure}, Time: when, Value: 1},
			{TimeSeries: metrics.TimeSeries{Metric: builtin.HTTPReqDuration, Tags: measure}, Time: when, Value: 12},
		}})
	}
	out.flushBefore(base.Unix() + 2)
	if stdout.Len() != 0 {
		t.Fatalf("printed while running: %q", stdout.String())
	}
	if err := out.Stop(); err != nil {
		t.Fatal(err)
	}
	printed := stdout.String()
	if strings.Count(printed, "\n") != 1 || !strings.HasPrefix(printed, LogPrefix) {
		t.Fatalf("want one line starting %q, got %q", LogPrefix, printed)
	}
	compressed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(strings.TrimPrefix(printed, LogPrefix)))
	if err != nil {
		t.Fatal(err)
	}
	reader, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		t.Fatal(err)
	}
	got := sumSeconds(t, reader)
	for second := int64(0); second < 3; second++ {
		if n := got[base.Unix()+second]["measure"].Requests; n != 100 {
			t.Errorf("second %d: %d requests, want 100", second, n)
		}
	}
}

// TestRequestNamesAreCountedApart: requests tagged with a name are counted under it as well as in their scenario;
// past namesLimit names in a second the rest share one entry.
func TestRequestNamesAreCountedApart(t *testing.T) {
	registry := metrics.NewRegistry()
	builtin := metrics.RegisterBuiltinMetrics(registry)
	base := time.Unix(1_800_000_000, 0)
	path := filepath.Join(t.TempDir(), "per-second.ndjson")
	out := newOutput(path, logrus.New(), func() time.Time { return base })
	if err := out.Start(); err != nil {
		t.Fatal(err)
	}
	tags := func(name string) *metrics.TagSet {
		return registry.RootTagSet().With("scenario", "measure").With("name", name)
	}
	var samples []metrics.SampleContainer
	for i := 0; i < namesLimit+5; i++ {
		name := "GET /api/item/" + strconv.Itoa(i)
		if i < 2 {
			name = "orders"
		}
		samples = append(samples, metrics.Samples{
			{TimeSeries: metrics.TimeSeries{Metric: builtin.HTTPReqs, Tags: tags(name)}, Time: base, Value: 1},
			{TimeSeries: metrics.TimeSeries{Metric: builtin.HTTPReqFailed, Tags: tags(name)}, Time: base, Value: 1},
			{TimeSeries: metrics.TimeSeries{Metric: builtin.HTTPReqDuration, Tags: tags(name)}, Time: base, Value: 7},
		})
	}
	out.AddMetricSamples(samples)
	if err := out.Stop(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var l line
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatal(err)
	}
	measure := l.Scenarios["measure"]
	if measure.Requests != namesLimit+5 {
		t.Fatalf("scenario requests %d, want %d", measure.Requests, namesLimit+5)
	}
	if orders := measure.Names["orders"]; orders.Requests != 2 || orders.Failed != 2 || len(orders.LatencyBuckets) != 1 {
		t.Errorf("orders: %+v", orders)
	}
	if len(measure.Names) != namesLimit+1 {
		t.Errorf("%d names kept apart, want %d plus %q", len(measure.Names), namesLimit, otherNames)
	}
	var total int64
	for _, n := range measure.Names {
		total += n.Requests
	}
	if total != measure.Requests {
		t.Errorf("names add up to %d requests, the scenario has %d", total, measure.Requests)
	}
}

// BenchmarkRequest is the output's cost per HTTP request: the samples k6 sends for one request of a generated script
// (the request's metrics and its iteration's), one container each, as k6 hands them over.
func BenchmarkRequest(b *testing.B) {
	registry := metrics.NewRegistry()
	builtin := metrics.RegisterBuiltinMetrics(registry)
	tags := registry.RootTagSet().With("scenario", "measure").With("name", "upstream").With("status", "200")
	requestMetrics := []*metrics.Metric{
		builtin.HTTPReqs, builtin.HTTPReqFailed, builtin.HTTPReqDuration, builtin.HTTPReqBlocked,
		builtin.HTTPReqConnecting, builtin.HTTPReqTLSHandshaking, builtin.HTTPReqSending, builtin.HTTPReqWaiting,
		builtin.HTTPReqReceiving,
	}
	iterationMetrics := []*metrics.Metric{builtin.DataSent, builtin.DataReceived, builtin.Iterations, builtin.IterationDuration}
	out := newOutput(filepath.Join(b.TempDir(), "per-second.ndjson"), logrus.New(), time.Now)
	if err := out.Start(); err != nil {
		b.Fatal(err)
	}
	// Three seconds of requests at 1000/s, built before the clock starts so that only the output is measured.
	base := time.Now()
	batches := make([][]metrics.SampleContainer, 3000)
	for i := range batches {
		when := base.Add(time.Duration(i) * time.Millisecond)
		sample := func(metric *metrics.Metric) metrics.Sample {
			return metrics.Sample{TimeSeries: metrics.TimeSeries{Metric: metric, Tags: tags}, Time: when, Value: 1}
		}
		request := make([]metrics.Sample, 0, len(requestMetrics))
		for _, metric := range requestMetrics {
			request = append(request, sample(metric))
		}
		iteration := make([]metrics.Sample, 0, len(iterationMetrics))
		for _, metric := range iterationMetrics {
			iteration = append(iteration, sample(metric))
		}
		batches[i] = []metrics.SampleContainer{
			metrics.ConnectedSamples{Samples: request, Tags: tags, Time: when},
			metrics.ConnectedSamples{Samples: iteration, Tags: tags, Time: when},
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out.AddMetricSamples(batches[i%len(batches)])
	}
	b.StopTimer()
	if err := out.Stop(); err != nil {
		b.Fatal(err)
	}
}
