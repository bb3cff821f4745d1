package persecond

import (
	"math"
	"time"

	"go.k6.io/k6/lib"
	"go.k6.io/k6/lib/executor"
)

// schedule gives, for an arrival-rate scenario, when this k6 instance's ticks are due: the offset from the scenario's
// start of the instance's j-th tick, j counted from 0 over the ticks of this instance only.
//
// k6 numbers the iterations of the whole test (all instances) 0, 1, 2... and gives each instance a striped share of
// them through its execution segment (lib.ExecutionTuple.GetStripedOffsets: the instance's first number, then the
// steps between its numbers, repeating). A constant rate has its global tick n due at n times the period; a ramping
// rate has its tick n due when the area under the rate curve reaches n+1 (the rate ramps linearly within a stage).
type schedule struct {
	first   int64
	steps   []int64
	next    int
	global  int64
	started bool
	dueAt   func(global int64) (time.Duration, bool)
	// length is the scenario's duration (its stages' for a ramping rate): k6 handles the ticks due before it, and one
	// due exactly at it only if it wins the race with the scenario's end. A constant rate's loop that runs late may
	// handle ticks due after it as well (it picks at random between a tick already due and the end, both ready), so
	// the schedule goes on past it: the events say how many ticks k6 handled; cut off counts only ticks before it.
	length time.Duration
}

// scheduleOf returns the schedule of an arrival-rate scenario, or false for any other executor.
func scheduleOf(config lib.ExecutorConfig, tuple *lib.ExecutionTuple) (*schedule, bool) {
	var due func(int64) (time.Duration, bool)
	var length time.Duration
	switch c := config.(type) {
	case *executor.ConstantArrivalRateConfig:
		due = constantDue(*c)
		length = c.Duration.TimeDuration()
	case *executor.RampingArrivalRateConfig:
		due = rampingDue(*c)
		for _, st := range c.Stages {
			length += st.Duration.TimeDuration()
		}
	default:
		return nil, false
	}
	if due == nil {
		return nil, false
	}
	first, steps, _ := tuple.GetStripedOffsets()
	if len(steps) == 0 {
		steps = []int64{1}
	}
	return &schedule{first: first, steps: steps, dueAt: due, length: length}, true
}

// nextDue is the offset of the instance's next tick; false past a ramping rate's last stage, never for a constant rate
// (see length).
func (s *schedule) nextDue() (time.Duration, bool) {
	if !s.started {
		s.global = s.first
		s.started = true
	} else {
		s.global += s.steps[s.next%len(s.steps)]
		s.next++
	}
	return s.dueAt(s.global)
}

// constantDue: tick n at n periods, the period being the time unit over the rate, in whole nanoseconds as k6 has it.
func constantDue(c executor.ConstantArrivalRateConfig) func(int64) (time.Duration, bool) {
	rate := c.Rate.Int64
	unit := c.TimeUnit.TimeDuration()
	if rate <= 0 || unit <= 0 {
		return nil
	}
	period := time.Duration(float64(unit) / float64(rate))
	return func(n int64) (time.Duration, bool) {
		at := period * time.Duration(n)
		return at, true
	}
}

// rampingDue: tick n when the iterations due so far (the area under the rate, per nanosecond) reach n+1.
func rampingDue(c executor.RampingArrivalRateConfig) func(int64) (time.Duration, bool) {
	unit := float64(c.TimeUnit.TimeDuration())
	if unit <= 0 || len(c.Stages) == 0 {
		return nil
	}
	type stage struct {
		begin      time.Duration
		length     float64
		from, to   float64
		doneBefore float64
	}
	stages := make([]stage, 0, len(c.Stages))
	from := float64(c.StartRate.ValueOrZero()) / unit
	var begin time.Duration
	done := 0.0
	for _, st := range c.Stages {
		length := float64(st.Duration.TimeDuration())
		to := float64(st.Target.ValueOrZero()) / unit
		stages = append(stages, stage{begin: begin, length: length, from: from, to: to, doneBefore: done})
		done += length * (from + to) / 2
		begin += st.Duration.TimeDuration()
		from = to
	}
	current := 0
	return func(n int64) (time.Duration, bool) {
		want := float64(n + 1)
		for current < len(stages) && stages[current].doneBefore+stages[current].length*
			(stages[current].from+stages[current].to)/2 < want {
			current++
		}
		if current == len(stages) {
			return 0, false
		}
		st := stages[current]
		area := want - st.doneBefore
		var x float64
		if st.from == st.to {
			x = area / st.to
		} else {
			// from*x + (to-from)*x^2/(2*length) = area, the root within the stage.
			slope := (st.to - st.from) / st.length
			disc := st.from*st.from + 2*slope*area
			if disc < 0 {
				disc = 0
			}
			x = (math.Sqrt(disc) - st.from) / slope
		}
		return st.begin + time.Duration(x), true
	}
}
