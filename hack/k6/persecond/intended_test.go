package persecond

import (
	"math"
	"strconv"
	"testing"
	"time"

	"go.k6.io/k6/lib"
	"go.k6.io/k6/lib/executor"
	"go.k6.io/k6/lib/types"
	"gopkg.in/guregu/null.v3"
)

func constantRate(t *testing.T, rate int64, segment string) *schedule {
	t.Helper()
	return constantRateFor(t, rate, segment, time.Minute)
}

func constantRateFor(t *testing.T, rate int64, segment string, duration time.Duration) *schedule {
	t.Helper()
	config := executor.NewConstantArrivalRateConfig("measure")
	config.Rate = null.IntFrom(rate)
	config.TimeUnit = types.NullDurationFrom(time.Second)
	config.Duration = types.NullDurationFrom(duration)
	tuple := fullTuple(t)
	if segment != "" {
		sequence, err := lib.NewExecutionSegmentSequenceFromString("0,1/2,1")
		if err != nil {
			t.Fatal(err)
		}
		part, err := lib.NewExecutionSegmentFromString(segment)
		if err != nil {
			t.Fatal(err)
		}
		if tuple, err = lib.NewExecutionTuple(part, &sequence); err != nil {
			t.Fatal(err)
		}
	}
	s, ok := scheduleOf(config, tuple)
	if !ok {
		t.Fatal("a constant arrival rate has a schedule")
	}
	return s
}

func fullTuple(t *testing.T) *lib.ExecutionTuple {
	t.Helper()
	tuple, err := lib.NewExecutionTuple(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tuple
}

// bucketMillis is the lower bound in milliseconds of the bucket a histogram counts a value in.
func bucketMillis(t *testing.T, histogram map[string]int64) map[float64]int64 {
	t.Helper()
	out := map[float64]int64{}
	for key, n := range histogram {
		bucket, err := strconv.Atoi(key)
		if err != nil {
			t.Fatal(err)
		}
		out[math.Round(float64(bucketLowerMicros(bucket))/100)/10] += n
	}
	return out
}

// TestServedAndDroppedTicksAreMatchedToTheSchedule: 100 ticks a second with one VU; the fourth iteration stalls for
// 45 ms, so the four ticks due while it runs are dropped. The served iterations count from their ticks, the dropped
// ones until the stalled iteration ended, and the lag of each tick is its handling time minus its due time.
func TestServedAndDroppedTicksAreMatchedToTheSchedule(t *testing.T) {
	s := &intendedScenario{schedule: constantRate(t, 100, "")}
	base := time.Unix(1_800_000_000, 0).UnixNano()
	ms := func(v float64) int64 { return int64(v * float64(time.Millisecond)) }
	// Ticks 0-2: started 0.2 ms late, 1 ms each.
	for j := 0; j < 3; j++ {
		at := base + ms(float64(10*j)+0.2)
		s.add(tickEvent{at: at, end: at + ms(1)})
	}
	// Tick 3 starts on time and takes 45 ms; ticks 4-7 find no VU.
	s.add(tickEvent{at: base + ms(30), end: base + ms(75)})
	for j := 4; j < 8; j++ {
		s.add(tickEvent{at: base + ms(float64(10*j)+0.05), end: -1})
	}
	// Tick 8 runs again; in the order k6 hands samples over, out of time order.
	s.add(tickEvent{at: base + ms(80.1), end: base + ms(81.1)})
	s.events[0], s.events[len(s.events)-1] = s.events[len(s.events)-1], s.events[0]

	// k6 stopped with the last iteration's end: every tick due until then had its event.
	counts, ok := s.compute(base + ms(81.1))
	if !ok {
		t.Fatal("no counts")
	}
	if counts.StartUnixNanos != base {
		t.Fatalf("the scenario started at %d, not %d (the least late tick is on time)", counts.StartUnixNanos, base)
	}
	served := bucketMillis(t, counts.Served)
	if near(served, 1.2) != 3 || near(served, 45) != 1 || near(served, 1.1) != 1 {
		t.Fatalf("served latencies from the ticks: %v, want 3 x 1.2 ms, 1 x 45 ms, 1 x 1.1 ms", served)
	}
	dropped := bucketMillis(t, counts.DroppedAtLeast)
	// Ticks 4..7 were due at 40..70 ms; a VU was free at 75 ms.
	for _, want := range []float64{35, 25, 15, 5} {
		if near(dropped, want) != 1 {
			t.Fatalf("dropped lower bounds %v miss %v ms", dropped, want)
		}
	}
	if len(counts.BeyondWindowAtLeast) != 0 || counts.Unmatched != 0 || len(counts.CutOffAtLeast) != 0 {
		t.Fatalf("nothing is beyond the window, cut off or unmatched: %+v", counts)
	}
}

// TestDropsWithNoLaterEndLieBeyondTheWindow: a tick dropped after the last iteration ended was never served.
func TestDropsWithNoLaterEndLieBeyondTheWindow(t *testing.T) {
	s := &intendedScenario{schedule: constantRate(t, 10, "")}
	base := time.Unix(1_800_000_000, 0).UnixNano()
	s.add(tickEvent{at: base, end: base + int64(250*time.Millisecond)})
	s.add(tickEvent{at: base + int64(100*time.Millisecond), end: -1})
	s.add(tickEvent{at: base + int64(200*time.Millisecond), end: -1})
	s.add(tickEvent{at: base + int64(300*time.Millisecond), end: -1})
	counts, _ := s.compute(base + int64(300*time.Millisecond))
	if total(counts.DroppedAtLeast) != 2 || total(counts.BeyondWindowAtLeast) != 1 {
		t.Fatalf("want 2 dropped with a bound and 1 beyond the window: %+v", counts)
	}
}

// TestTicksWithoutAnEventBeforeK6StoppedWereCutOff: k6 emits nothing for an iteration it interrupts at the scenario's
// end. At 100 ticks a second, ticks 0-4 ran (the last one ending at 72 ms) and k6 stopped at 75 ms: ticks 5-7, due at
// 50, 60 and 70 ms, were started and cut off, their callers unserved at least until the last end; the schedule's
// later ticks (up to a minute) were never due while k6 ran.
func TestTicksWithoutAnEventBeforeK6StoppedWereCutOff(t *testing.T) {
	s := &intendedScenario{schedule: constantRate(t, 100, "")}
	base := time.Unix(1_800_000_000, 0).UnixNano()
	ms := func(v float64) int64 { return int64(v * float64(time.Millisecond)) }
	for j := 0; j < 4; j++ {
		s.add(tickEvent{at: base + ms(float64(10*j)), end: base + ms(float64(10*j)+1)})
	}
	s.add(tickEvent{at: base + ms(40), end: base + ms(72)})

	counts, _ := s.compute(base + ms(75))

	if total(counts.Served) != 5 || len(counts.DroppedAtLeast) != 0 || len(counts.BeyondWindowAtLeast) != 0 {
		t.Fatalf("5 served, nothing dropped: %+v", counts)
	}
	cut := bucketMillis(t, counts.CutOffAtLeast)
	if total(counts.CutOffAtLeast) != 3 || near(cut, 22) != 1 || near(cut, 12) != 1 || near(cut, 2) != 1 {
		t.Fatalf("cut off lower bounds %v, want 22, 12 and 2 ms", cut)
	}
}

// TestTicksAfterTheScenariosEndAreNeverCutOff: a 100 ms scenario at 100 a second has ticks due at 0-90 ms and one
// exactly at its end, which k6 may or may not handle. k6 stopped 5 s later (the graceful stop waiting for a slow
// answer): only tick 9, due before the end without an event, is cut off, not the tick at the end nor anything due
// while k6 waited.
func TestTicksAfterTheScenariosEndAreNeverCutOff(t *testing.T) {
	s := &intendedScenario{schedule: constantRateFor(t, 100, "", 100*time.Millisecond)}
	base := time.Unix(1_800_000_000, 0).UnixNano()
	ms := func(v float64) int64 { return int64(v * float64(time.Millisecond)) }
	for j := 0; j < 9; j++ {
		s.add(tickEvent{at: base + ms(float64(10*j)), end: base + ms(float64(10*j)+1)})
	}
	s.events[8].end = base + ms(3000)

	counts, _ := s.compute(base + ms(5000))

	if total(counts.Served) != 9 || total(counts.CutOffAtLeast) != 1 || counts.Unmatched != 0 {
		t.Fatalf("9 served and tick 9 cut off, nothing else: %+v", counts)
	}
	// With the tick at the end handled too, every event matches the schedule.
	s = &intendedScenario{schedule: constantRateFor(t, 100, "", 100*time.Millisecond)}
	for j := 0; j <= 10; j++ {
		s.add(tickEvent{at: base + ms(float64(10*j)), end: base + ms(float64(10*j)+1)})
	}
	counts, _ = s.compute(base + ms(5000))
	if total(counts.Served) != 11 || len(counts.CutOffAtLeast) != 0 || counts.Unmatched != 0 {
		t.Fatalf("11 served, none cut off or unmatched: %+v", counts)
	}
}

// TestALateGeneratorsTicksAfterTheEndStillCount: k6's constant-rate loop, running late at the end of a 100 ms
// scenario at 100 a second, handled ticks 10 and 11 (due at 100 and 110 ms) after the end was due, both dropped, as
// its select may pick a due tick over the end. They match the schedule and count as dropped, as k6 counted them.
func TestALateGeneratorsTicksAfterTheEndStillCount(t *testing.T) {
	s := &intendedScenario{schedule: constantRateFor(t, 100, "", 100*time.Millisecond)}
	base := time.Unix(1_800_000_000, 0).UnixNano()
	ms := func(v float64) int64 { return int64(v * float64(time.Millisecond)) }
	for j := 0; j < 10; j++ {
		s.add(tickEvent{at: base + ms(float64(10*j)+2), end: base + ms(float64(10*j)+60)})
	}
	s.add(tickEvent{at: base + ms(121), end: -1})
	s.add(tickEvent{at: base + ms(121.5), end: -1})

	counts, _ := s.compute(base + ms(200))

	dropped := total(counts.DroppedAtLeast) + total(counts.BeyondWindowAtLeast)
	if total(counts.Served) != 10 || dropped != 2 || counts.Unmatched != 0 || len(counts.CutOffAtLeast) != 0 {
		t.Fatalf("want 10 served, 2 dropped, nothing unmatched or cut off: %+v", counts)
	}
}

// TestASegmentGetsItsStripedShareOfTheTicks: with two runners (0:1/2 and 1/2:1) each handles every other global
// tick, so the second runner's ticks are due at 10, 30, 50 ms at 100 a second.
func TestASegmentGetsItsStripedShareOfTheTicks(t *testing.T) {
	first := constantRate(t, 100, "0:1/2")
	second := constantRate(t, 100, "1/2:1")
	var a, b []time.Duration
	for range 3 {
		x, _ := first.nextDue()
		y, _ := second.nextDue()
		a, b = append(a, x), append(b, y)
	}
	want := func(got []time.Duration, ms ...int) {
		for i, m := range ms {
			if got[i] != time.Duration(m)*time.Millisecond {
				t.Fatalf("ticks %v, want %v ms", got, ms)
			}
		}
	}
	want(a, 0, 20, 40)
	want(b, 10, 30, 50)
}

// TestARampingRateIsDueWhenItsAreaReachesTheTick: from 0 to 10 a second over 10 s the area after t seconds is t²/2,
// so tick n is due at sqrt(2(n+1)) s; then 10 a second for 1 s.
func TestARampingRateIsDueWhenItsAreaReachesTheTick(t *testing.T) {
	config := executor.NewRampingArrivalRateConfig("measure")
	config.StartRate = null.IntFrom(0)
	config.TimeUnit = types.NullDurationFrom(time.Second)
	config.Stages = []executor.Stage{
		{Duration: types.NullDurationFrom(10 * time.Second), Target: null.IntFrom(10)},
		{Duration: types.NullDurationFrom(time.Second), Target: null.IntFrom(10)},
	}
	s, ok := scheduleOf(config, fullTuple(t))
	if !ok {
		t.Fatal("a ramping arrival rate has a schedule")
	}
	for n := 0; n < 50; n++ {
		got, ok := s.nextDue()
		if !ok {
			t.Fatalf("tick %d is within the stages", n)
		}
		want := math.Sqrt(2*float64(n+1)) * float64(time.Second)
		if math.Abs(float64(got)-want) > float64(time.Microsecond) {
			t.Fatalf("tick %d due at %v, want %v", n, got, time.Duration(want))
		}
	}
	for n := 50; n < 60; n++ {
		got, _ := s.nextDue()
		want := 10*time.Second + time.Duration(n-49)*100*time.Millisecond
		if d := got - want; d > time.Microsecond || d < -time.Microsecond {
			t.Fatalf("tick %d due at %v, want %v", n, got, want)
		}
	}
	if _, ok := s.nextDue(); ok {
		t.Fatal("no tick after the last stage")
	}
}

// near counts the values of the buckets (by lower bound in ms) that may hold the given latency.
func near(histogram map[float64]int64, millis float64) int64 {
	var n int64
	for lower, count := range histogram {
		if millis >= lower && millis <= lower*(1+1.0/subBuckets)+0.001 {
			n += count
		}
	}
	return n
}

func total(histogram map[string]int64) int64 {
	var n int64
	for _, v := range histogram {
		n += v
	}
	return n
}
