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

// counts is what one scenario did in one second, and within it each request name (k6's "name" tag).
type counts struct {
	Requests int64         `json:"requests"`
	Failed   int64         `json:"failed"`
	Dropped  int64         `json:"dropped"`
	Latency  map[int]int64 `json:"-"`
	names    map[string]*counts
}

// namesLimit bounds the request names kept apart per scenario and second: a script that names each request by its
// URL (k6's default name) would otherwise make a line per second as long as its requests.
const namesLimit = 50

// otherNames collects the names beyond namesLimit.
const otherNames = "(other names)"

// named is the counts of one request name within these.
func (c *counts) named(name string) *counts {
	if c.names == nil {
		c.names = make(map[string]*counts, 4)
	}
	n := c.names[name]
	if n == nil {
		if len(c.names) >= namesLimit && name != otherNames {
			return c.named(otherNames)
		}
		n = &counts{}
		c.names[name] = n
	}
	return n
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

// line is one second as written: {"second":S,"scenarios":{"measure":{"requests":N,...,"latency":{"BUCKET":N},
// "names":{"NAME":{"requests":N,"failed":N,"dropped":0,"latency":{...}}}}}}.
type line struct {
	Second    int64                     `json:"second"`
	Scenarios map[string]scenarioCounts `json:"scenarios"`
}

type scenarioCounts struct {
	counts
	LatencyBuckets map[string]int64          `json:"latency,omitempty"`
	Names          map[string]scenarioCounts `json:"names,omitempty"`
}

// encode is the counts as written, request names included.
func encode(c *counts) scenarioCounts {
	sc := scenarioCounts{counts: *c}
	if len(c.Latency) > 0 {
		sc.LatencyBuckets = make(map[string]int64, len(c.Latency))
		for bucket, n := range c.Latency {
			sc.LatencyBuckets[strconv.Itoa(bucket)] = n
		}
	}
	if len(c.names) > 0 {
		sc.Names = make(map[string]scenarioCounts, len(c.names))
		for name, n := range c.names {
			sc.Names[name] = encode(n)
		}
	}
	return sc
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
			l.Scenarios[scenario] = encode(c)
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
