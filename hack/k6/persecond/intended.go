package persecond

import (
	"sort"
	"strconv"
	"time"
)

// What k6 does with an arrival-rate scenario (constant or ramping), read in its executors: at each tick it hands the
// iteration to an idle VU at once or, when none is idle, drops it (a dropped_iterations sample, time stamped when the
// tick was handled) and never sends it later. The iteration number a script sees (exec.scenario.iterationInTest) is
// taken when an iteration starts, so a dropped tick takes no number and after the first drop the numbers no longer
// tell which tick an iteration belongs to. What does tell it: ticks are handled in order, each one either starts an
// iteration (whose start is its iteration_duration before its iterations sample) or drops one. So the j-th of those
// events in time is the instance's j-th tick.
//
// Latency from the intended start is then, for a served iteration, its end minus its tick's due time: the schedule
// lag (generator-side, how late the tick was handled and the VU started) plus the iteration's own duration. A dropped
// iteration was never sent: its caller would have waited at least until a VU of this instance was free again, so
// the next iteration end after its drop minus its due time is a lower bound of its latency; with no iteration ending
// after it, it lies beyond the measured window (bounded below by the scenario's last event minus its due time).
//
// The scenario's start is not among the samples: it is taken as the time that makes the smallest lag zero (the
// first ticks of a run are handled on time when the generator has CPU to spare; a generator starved from its first
// tick on makes every lag look smaller by the lag of its least late tick).
//
// An iteration that k6 interrupts at the scenario's end (still running when its graceful stop ran out) emits no
// iteration sample (k6's runFn emits iteration_duration only for a full iteration), so its tick leaves no event. After
// the handled ticks, the schedule's ticks due before the scenario's end and before k6 stopped that have no event are
// such iterations, cut off:
// their callers were not served while k6 ran, so the scenario's last event minus their due time is a lower bound of
// their latency. Ticks due after k6 stopped (a test aborted early) were never intended while it ran and are not
// counted. Cut-off iterations interrupted in the middle of the run would shift the ticks after them; k6 interrupts
// only at a scenario's end, where they are the last ticks.

// intendedEventLimit bounds the events kept per output (16 bytes each): about 10 minutes at 8000 iterations a second.
const intendedEventLimit = 5_000_000

// tickEvent is a handled tick: a started iteration (start and end known) or a dropped one (end negative).
type tickEvent struct {
	at  int64 // Unix nanoseconds the tick was handled: the iteration's start, or the drop
	end int64 // Unix nanoseconds the iteration ended; -1 for a dropped iteration
}

// intendedScenario collects the handled ticks of one arrival-rate scenario.
type intendedScenario struct {
	schedule *schedule
	events   []tickEvent
	full     bool
}

func (s *intendedScenario) add(event tickEvent) {
	if len(s.events) >= intendedEventLimit {
		s.full = true
		return
	}
	s.events = append(s.events, event)
}

// intendedCounts is the line written for one scenario when k6 stops.
type intendedCounts struct {
	// Served is the latency from the intended start of every iteration that ran to its end, by bucket.
	Served map[string]int64 `json:"served,omitempty"`
	// DroppedAtLeast is, for every dropped iteration, a lower bound of its latency (until a VU was free), by bucket.
	DroppedAtLeast map[string]int64 `json:"droppedAtLeast,omitempty"`
	// BeyondWindowAtLeast is, for dropped iterations after which no iteration ended, their lower bound by bucket.
	BeyondWindowAtLeast map[string]int64 `json:"beyondWindowAtLeast,omitempty"`
	// CutOffAtLeast is, for the ticks due before k6 stopped that left no event (iterations interrupted at the
	// scenario's end), a lower bound of their latency by bucket.
	CutOffAtLeast map[string]int64 `json:"cutOffAtLeast,omitempty"`
	// Lag is the schedule lag of every handled tick (served or dropped), by bucket.
	Lag map[string]int64 `json:"lag,omitempty"`
	// StartUnixNanos is the scenario's start as estimated (see above).
	StartUnixNanos int64 `json:"startUnixNanos"`
	// Unmatched counts handled ticks beyond the scenario's schedule (there should be none).
	Unmatched int64 `json:"unmatched,omitempty"`
	// Incomplete is set when more iterations ran than the output keeps (intendedEventLimit).
	Incomplete bool `json:"incomplete,omitempty"`
}

// intendedLine is what the output writes for the intended starts: {"intended":{"SCENARIO":{...}}}.
type intendedLine struct {
	Intended map[string]intendedCounts `json:"intended"`
}

// compute matches the handled ticks to the schedule and counts the latencies from the intended starts; stopped is
// when k6 stopped (Unix nanoseconds), the end of the ticks that count as cut off.
func (s *intendedScenario) compute(stopped int64) (intendedCounts, bool) {
	if len(s.events) == 0 {
		return intendedCounts{}, false
	}
	events := s.events
	sort.Slice(events, func(i, j int) bool { return events[i].at < events[j].at })
	due := make([]int64, len(events))
	matched := 0
	start := int64(0)
	for j := range events {
		offset, ok := s.schedule.nextDue()
		if !ok {
			break
		}
		due[j] = int64(offset)
		implied := events[j].at - due[j]
		if j == 0 || implied < start {
			start = implied
		}
		matched++
	}
	ends := make([]int64, 0, len(events))
	last := int64(0)
	for _, e := range events {
		if e.end >= 0 {
			ends = append(ends, e.end)
			last = max(last, e.end)
		}
		last = max(last, e.at)
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i] < ends[j] })
	out := intendedCounts{
		Served:              map[string]int64{},
		DroppedAtLeast:      map[string]int64{},
		BeyondWindowAtLeast: map[string]int64{},
		CutOffAtLeast:       map[string]int64{},
		Lag:                 map[string]int64{},
		StartUnixNanos:      start,
		Unmatched:           int64(len(events) - matched),
		Incomplete:          s.full,
	}
	for j := 0; j < matched; j++ {
		e := events[j]
		intendedAt := start + due[j]
		countNanos(out.Lag, e.at-intendedAt)
		if e.end >= 0 {
			countNanos(out.Served, e.end-intendedAt)
			continue
		}
		i := sort.Search(len(ends), func(k int) bool { return ends[k] > e.at })
		if i < len(ends) {
			countNanos(out.DroppedAtLeast, ends[i]-intendedAt)
		} else {
			countNanos(out.BeyondWindowAtLeast, last-intendedAt)
		}
	}
	if matched == len(events) {
		// Every event had its tick: the schedule's ticks left, up to k6's stop, were cut off (bounded like the events).
		for n := 0; n < intendedEventLimit; n++ {
			offset, ok := s.schedule.nextDue()
			// A tick due exactly at the scenario's end is handled only if it wins the race with the end: left out.
			if !ok || start+int64(offset) > stopped || (s.schedule.length > 0 && offset >= s.schedule.length) {
				break
			}
			countNanos(out.CutOffAtLeast, last-(start+int64(offset)))
		}
	}
	return out, true
}

func countNanos(into map[string]int64, nanos int64) {
	if nanos < 0 {
		nanos = 0
	}
	into[strconv.Itoa(bucketOf(uint64((nanos+500)/int64(time.Microsecond))))]++
}
