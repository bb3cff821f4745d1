package persecond

import (
	"encoding/json"
	"math/bits"
	"sort"
	"strconv"
)

// exactMicros: latencies below it have a bucket each; above it a power of two is split into subBuckets buckets, so a
// bucket is at most 1/subBuckets (1.6 %) of its lower bound wide.
const (
	subBucketBits = 6
	subBuckets    = 1 << subBucketBits
	exactMicros   = 2 * subBuckets
)

// bucketOf returns the log-linear bucket of a latency in microseconds. Buckets are contiguous from 0: value v below
// exactMicros is bucket v; above, the top subBucketBits+1 bits of v select the bucket.
func bucketOf(micros uint64) int {
	if micros < exactMicros {
		return int(micros)
	}
	shift := bits.Len64(micros) - 1 - subBucketBits
	return shift*subBuckets + int(micros>>uint(shift))
}

// bucketLowerMicros is the smallest latency of a bucket, the inverse of bucketOf for a bucket's first value.
func bucketLowerMicros(bucket int) uint64 {
	if bucket < exactMicros {
		return uint64(bucket)
	}
	shift := bucket/subBuckets - 1
	return uint64(bucket%subBuckets+subBuckets) << uint(shift)
}

// counts is what one scenario did in one second.
type counts struct {
	Requests int64         `json:"requests"`
	Failed   int64         `json:"failed"`
	Dropped  int64         `json:"dropped"`
	Latency  map[int]int64 `json:"-"`
}

// bins holds counts by whole second of the samples' own time stamps (Unix seconds) and by scenario.
type bins map[int64]map[string]*counts

func (b bins) at(second int64, scenario string) *counts {
	byScenario := b[second]
	if byScenario == nil {
		byScenario = make(map[string]*counts, 2)
		b[second] = byScenario
	}
	c := byScenario[scenario]
	if c == nil {
		c = &counts{}
		byScenario[scenario] = c
	}
	return c
}

func (c *counts) addLatency(millis float64) {
	if millis < 0 {
		millis = 0
	}
	if c.Latency == nil {
		c.Latency = make(map[int]int64, 16)
	}
	c.Latency[bucketOf(uint64(millis*1000+0.5))]++
}

// line is one second as written: {"second":S,"scenarios":{"measure":{"requests":N,...,"latency":{"BUCKET":N}}}}.
type line struct {
	Second    int64                     `json:"second"`
	Scenarios map[string]scenarioCounts `json:"scenarios"`
}

type scenarioCounts struct {
	counts
	LatencyBuckets map[string]int64 `json:"latency,omitempty"`
}

// takeBefore removes the seconds before the given one and returns them as JSON lines, oldest first.
func (b bins) takeBefore(second int64) ([][]byte, error) {
	var done []int64
	for s := range b {
		if s < second {
			done = append(done, s)
		}
	}
	sort.Slice(done, func(i, j int) bool { return done[i] < done[j] })
	out := make([][]byte, 0, len(done))
	for _, s := range done {
		l := line{Second: s, Scenarios: make(map[string]scenarioCounts, len(b[s]))}
		for scenario, c := range b[s] {
			sc := scenarioCounts{counts: *c}
			if len(c.Latency) > 0 {
				sc.LatencyBuckets = make(map[string]int64, len(c.Latency))
				for bucket, n := range c.Latency {
					sc.LatencyBuckets[strconv.Itoa(bucket)] = n
				}
			}
			l.Scenarios[scenario] = sc
		}
		encoded, err := json.Marshal(l)
		if err != nil {
			return nil, err
		}
		out = append(out, encoded)
		delete(b, s)
	}
	return out, nil
}
