package persecond

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"sync/atomic"

	"go.k6.io/k6/js/modules"
)

// ModuleName is the JavaScript module a script imports to have this output count its measured latencies.
const ModuleName = "k6/x/stackbench"

// Counting a response in a latency bucket from the script costs k6 a metric sample per response, matched against
// every sub-metric of its counter and carried to every output; this output already sees each request's
// http_req_duration sample, so it can count the same buckets itself. The script says which scenario and which buckets
// (countLatencies, in its init code), and reads the counts back in handleSummary (latencyBuckets), which k6 calls
// after every sample reached the outputs and they stopped.

// latencyPlan is the buckets a script asked for: bucket i holds [minMs * growth^i, minMs * growth^(i+1)), the first
// also everything faster, the last everything slower; computed exactly as the script would, so the counts are the
// ones it would have made.
type latencyPlan struct {
	scenario  string
	minMs     float64
	growth    float64
	logGrowth float64
	count     int
}

func (p *latencyPlan) bucketOf(ms float64) int {
	if !(ms > p.minMs) {
		return 0
	}
	index := math.Floor(math.Log(ms/p.minMs) / p.logGrowth)
	if index >= float64(p.count-1) {
		return p.count - 1
	}
	if index < 0 {
		return 0
	}
	return int(index)
}

// plan is the one k6 run's plan: a k6 process runs one test, and every VU's init code asks for the same plan.
var plan atomic.Pointer[latencyPlan]

// running is the output of this k6 process once it started; handleSummary reads its counts.
var running atomic.Pointer[Output]

// measuredLatencies counts the plan's scenario's latencies; guarded by the output's mutex.
type measuredLatencies struct {
	plan   *latencyPlan
	counts []int64
}

func (m *measuredLatencies) add(p *latencyPlan, ms float64) {
	if m.plan != p {
		// The plan is set in the init code, before any sample; a different one is refused there.
		m.plan = p
		m.counts = make([]int64, p.count)
	}
	m.counts[p.bucketOf(ms)]++
}

func init() {
	modules.Register(ModuleName, module{})
}

type module struct{}

type moduleInstance struct{}

func (module) NewModuleInstance(modules.VU) modules.Instance { return moduleInstance{} }

func (moduleInstance) Exports() modules.Exports {
	return modules.Exports{Named: map[string]any{
		"countLatencies": countLatencies,
		"latencyBuckets": latencyBuckets,
	}}
}

var planMu sync.Mutex

// countLatencies asks the output to count the http_req_duration samples of one scenario in count buckets from minMs,
// each growth times as wide as the one before. Every VU's init code calls it with the same arguments.
func countLatencies(scenario string, minMs, growth float64, count int) error {
	if scenario == "" || !(minMs > 0) || !(growth > 1) || count < 1 || count > 100_000 {
		return fmt.Errorf("%s: countLatencies(scenario, minMs, growth, count) needs a scenario, minMs > 0, growth > 1"+
			" and 1 to 100000 buckets; got (%q, %v, %v, %d)", ModuleName, scenario, minMs, growth, count)
	}
	planMu.Lock()
	defer planMu.Unlock()
	if p := plan.Load(); p != nil {
		if p.scenario != scenario || p.minMs != minMs || p.growth != growth || p.count != count {
			return fmt.Errorf("%s: countLatencies was asked for (%q, %v, %v, %d) after (%q, %v, %v, %d); a test"+
				" counts one set of buckets", ModuleName, scenario, minMs, growth, count, p.scenario, p.minMs,
				p.growth, p.count)
		}
		return nil
	}
	plan.Store(&latencyPlan{
		scenario: scenario, minMs: minMs, growth: growth, logGrowth: math.Log(growth), count: count,
	})
	return nil
}

// errNotRunning is what latencyBuckets says when k6 runs without this output.
var errNotRunning = errors.New(ModuleName + ": the stackbench output is not running, so no latency was counted: run" +
	" k6 with --out stackbench=FILE (or --out stackbench=- for standard output), as stackbench does, or generate the" +
	" script for a k6 without the stackbench output")

// latencyBuckets is the counts so far as bucket index (a string, as JSON keys are) to count, empty buckets left out.
func latencyBuckets() (map[string]int64, error) {
	o := running.Load()
	if o == nil {
		return nil, errNotRunning
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	counts := make(map[string]int64)
	for index, n := range o.measured.counts {
		if n > 0 {
			counts[strconv.Itoa(index)] = n
		}
	}
	return counts, nil
}
