// Package persecond is a k6 output that counts requests, failed requests, dropped iterations and request latencies
// per whole second of each sample's own time stamp and per scenario, and writes one JSON line per second to a file.
//
// With "-" instead of a file (a k6 runner in a pod, whose files go with the pod) it keeps the lines and, when k6
// stops, prints them on standard output as one line: LogPrefix followed by the lines gzip-compressed and
// base64-encoded, which whoever reads the pod's log takes from the end of it.
//
// Polling k6's REST API sees counts at the moment of the poll, so a steady load shows as uneven seconds; binning by
// the samples' time stamps shows it as it was sent. Per sample it costs a map look-up and an increment; the file is
// written by its own goroutine once a second.
//
// It also counts one scenario's latencies in the buckets a script asks for through the JavaScript module
// k6/x/stackbench, for the script's end-of-test summary (measured.go).
package persecond

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"go.k6.io/k6/lib"
	"go.k6.io/k6/metrics"
	"go.k6.io/k6/output"
)

// Name is the output's name on k6's command line: --out stackbench=FILE.
const Name = "stackbench"

// ToLog is the argument that asks for the seconds on standard output when k6 stops: --out stackbench=-.
const ToLog = "-"

// LogPrefix starts the one line the seconds are printed on with --out stackbench=-.
const LogPrefix = "stackbench-per-second-gzip-base64: "

// settle is how long after a second ends its line is written: samples reach an output in batches, up to about a
// second late. A sample later still adds a second line for the same second, which a reader sums.
const settle = 2 * time.Second

// flushEvery is how often finished seconds are written, so a killed k6 loses at most the last few.
const flushEvery = time.Second

// scenarioCacheLimit bounds the tag sets whose scenario is remembered (a script may tag each request differently).
const scenarioCacheLimit = 4096

func init() {
	output.RegisterExtension(Name, New)
}

// Output is the stackbench per-second output.
type Output struct {
	path   string
	logger logrus.FieldLogger
	now    func() time.Time

	mu        sync.Mutex
	bins      bins
	scenarios map[*metrics.TagSet]tagKey
	// intended holds the handled ticks of each arrival-rate scenario, for the latencies from the intended starts.
	intended map[string]*intendedScenario
	// measured holds the latency buckets a script asked for (measured.go), for its end-of-test summary.
	measured measuredLatencies

	file   *os.File
	writer *bufio.Writer
	// held collects the lines, gzip-compressed, when they go to the log at the end (ToLog).
	held    *gzip.Writer
	heldRaw *bytes.Buffer
	stdout  io.Writer
	writeMu sync.Mutex
	failed  bool
	stop    chan struct{}
	done    chan struct{}
}

// New makes the output for `--out stackbench=FILE`.
func New(params output.Params) (output.Output, error) {
	if params.ConfigArgument == "" {
		return nil, errors.New("the stackbench output needs a file to write to: --out stackbench=FILE")
	}
	o := newOutput(params.ConfigArgument, params.Logger, time.Now)
	if err := o.followSchedules(params.ScriptOptions); err != nil {
		return nil, err
	}
	return o, nil
}

// followSchedules finds the arrival-rate scenarios and this instance's share of their ticks.
func (o *Output) followSchedules(options lib.Options) error {
	tuple, err := lib.NewExecutionTuple(options.ExecutionSegment, options.ExecutionSegmentSequence)
	if err != nil {
		return fmt.Errorf("the stackbench output cannot read the execution segment: %w", err)
	}
	for name, config := range options.Scenarios {
		if s, ok := scheduleOf(config, tuple); ok {
			o.intended[name] = &intendedScenario{schedule: s}
		}
	}
	return nil
}

func newOutput(path string, logger logrus.FieldLogger, now func() time.Time) *Output {
	return &Output{
		path:      path,
		logger:    logger,
		now:       now,
		bins:      make(bins),
		scenarios: make(map[*metrics.TagSet]tagKey),
		intended:  make(map[string]*intendedScenario),
		stdout:    os.Stdout,
	}
}

// Description is what k6 prints for the output.
func (o *Output) Description() string {
	if o.path == ToLog {
		return fmt.Sprintf("%s (per-second counts and latencies to standard output when k6 stops)", Name)
	}
	return fmt.Sprintf("%s (per-second counts and latencies to %s)", Name, o.path)
}

// Start creates the file (or the buffer, for ToLog) and the goroutine that writes finished seconds to it.
func (o *Output) Start() error {
	running.Store(o)
	if o.path == ToLog {
		o.heldRaw = &bytes.Buffer{}
		o.held = gzip.NewWriter(o.heldRaw)
		o.writer = bufio.NewWriterSize(o.held, 64*1024)
		o.stop = make(chan struct{})
		o.done = make(chan struct{})
		go o.run()
		return nil
	}
	if dir := filepath.Dir(o.path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("the stackbench output cannot create the directory of %s: %w", o.path, err)
		}
	}
	file, err := os.Create(o.path)
	if err != nil {
		return fmt.Errorf("the stackbench output cannot create %s: %w", o.path, err)
	}
	o.file = file
	o.writer = bufio.NewWriterSize(file, 64*1024)
	o.stop = make(chan struct{})
	o.done = make(chan struct{})
	go o.run()
	return nil
}

func (o *Output) run() {
	defer close(o.done)
	ticker := time.NewTicker(flushEvery)
	defer ticker.Stop()
	for {
		select {
		case <-o.stop:
			return
		case <-ticker.C:
			o.flushBefore(o.now().Add(-settle).Unix())
		}
	}
}

// AddMetricSamples bins the samples k6 sends; k6 never calls it concurrently with itself.
func (o *Output) AddMetricSamples(containers []metrics.SampleContainer) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, container := range containers {
		for _, sample := range container.GetSamples() {
			o.add(sample)
		}
	}
}

func (o *Output) add(sample metrics.Sample) {
	var add func(*counts)
	switch sample.Metric.Name {
	case metrics.HTTPReqsName:
		add = func(c *counts) { c.Requests += int64(sample.Value) }
	case metrics.HTTPReqFailedName:
		if sample.Value == 0 {
			return
		}
		add = func(c *counts) { c.Failed++ }
	case metrics.DroppedIterationsName:
		add = func(c *counts) { c.Dropped += int64(sample.Value) }
	case metrics.HTTPReqDurationName:
		add = func(c *counts) { c.addLatency(sample.Value) }
	case metrics.IterationDurationName:
		o.addTick(sample, false)
		return
	default:
		return
	}
	key := o.keyOf(sample.Tags)
	switch sample.Metric.Name {
	case metrics.DroppedIterationsName:
		o.addTick(sample, true)
	case metrics.HTTPReqDurationName:
		if p := plan.Load(); p != nil && key.scenario == p.scenario {
			o.measured.add(p, sample.Value)
		}
	}
	c := o.bins.at(sample.Time.Unix(), key.scenario)
	add(c)
	// A request's own figures also by its name; a dropped iteration has none.
	if key.name != "" && sample.Metric.Name != metrics.DroppedIterationsName {
		add(c.named(key.name))
	}
}

// addTick keeps a handled tick of an arrival-rate scenario: an iteration that ended (its start is its duration
// before the sample) or a dropped one.
func (o *Output) addTick(sample metrics.Sample, dropped bool) {
	if len(o.intended) == 0 {
		return
	}
	scenario := o.intended[o.keyOf(sample.Tags).scenario]
	if scenario == nil {
		return
	}
	end := sample.Time.UnixNano()
	if dropped {
		scenario.add(tickEvent{at: end, end: -1})
		return
	}
	scenario.add(tickEvent{at: end - int64(sample.Value*float64(time.Millisecond)), end: end})
}

// tagKey is what the output reads of a sample's tags: its scenario and its request name.
type tagKey struct {
	scenario string
	name     string
}

// keyOf remembers the scenario and name of each tag set: k6 interns tag sets, so most samples share a few.
func (o *Output) keyOf(tags *metrics.TagSet) tagKey {
	if key, ok := o.scenarios[tags]; ok {
		return key
	}
	key := tagKey{}
	if tags != nil {
		key.scenario, _ = tags.Get("scenario")
		key.name, _ = tags.Get("name")
	}
	if len(o.scenarios) >= scenarioCacheLimit {
		clear(o.scenarios)
	}
	o.scenarios[tags] = key
	return key
}

// flushBefore writes the seconds before the given Unix second and flushes the file.
func (o *Output) flushBefore(second int64) {
	o.mu.Lock()
	lines, err := o.bins.takeBefore(second)
	o.mu.Unlock()
	o.writeMu.Lock()
	defer o.writeMu.Unlock()
	if err == nil {
		for _, l := range lines {
			if _, err = o.writer.Write(append(l, '\n')); err != nil {
				break
			}
		}
	}
	if err == nil && o.held == nil {
		err = o.writer.Flush()
	}
	if err != nil && !o.failed {
		o.failed = true
		o.logger.WithError(err).Errorf("the stackbench output could not write %s; per-second figures are incomplete", o.path)
	}
}

// Stop writes every second still held and closes the file.
func (o *Output) Stop() error {
	if o.stop == nil {
		return nil
	}
	close(o.stop)
	<-o.done
	o.flushBefore(math.MaxInt64)
	o.writeIntended()
	if o.held != nil {
		return o.printHeld()
	}
	if err := o.file.Close(); err != nil {
		return fmt.Errorf("the stackbench output could not close %s: %w", o.path, err)
	}
	return nil
}

// writeIntended writes, once k6 stopped, the latencies from the intended starts of the arrival-rate scenarios.
func (o *Output) writeIntended() {
	o.mu.Lock()
	l := intendedLine{Intended: make(map[string]intendedCounts, len(o.intended))}
	stopped := o.now().UnixNano()
	for name, scenario := range o.intended {
		if counts, ok := scenario.compute(stopped); ok {
			l.Intended[name] = counts
		}
	}
	o.mu.Unlock()
	if len(l.Intended) == 0 {
		return
	}
	encoded, err := json.Marshal(l)
	o.writeMu.Lock()
	defer o.writeMu.Unlock()
	if err == nil {
		_, err = o.writer.Write(append(encoded, '\n'))
	}
	if err == nil && o.held == nil {
		err = o.writer.Flush()
	}
	if err != nil && !o.failed {
		o.failed = true
		o.logger.WithError(err).Errorf("the stackbench output could not write the intended starts to %s", o.path)
	}
}

// printHeld prints the held seconds as one line on standard output (ToLog).
func (o *Output) printHeld() error {
	o.writeMu.Lock()
	defer o.writeMu.Unlock()
	if err := o.writer.Flush(); err != nil {
		return fmt.Errorf("the stackbench output could not compress its seconds: %w", err)
	}
	if err := o.held.Close(); err != nil {
		return fmt.Errorf("the stackbench output could not compress its seconds: %w", err)
	}
	encoded := base64.StdEncoding.EncodeToString(o.heldRaw.Bytes())
	if _, err := fmt.Fprintf(o.stdout, "%s%s\n", LogPrefix, encoded); err != nil {
		return fmt.Errorf("the stackbench output could not print its seconds: %w", err)
	}
	return nil
}
