package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"github.com/taskspec/taskspec/tests/conformance/go/eval"
)

type benchResult struct {
	Docs                  int     `json:"docs"`
	ParseNsPerDoc         float64 `json:"parse_ns_per_doc"`
	MarshalNsPerDoc       float64 `json:"marshal_ns_per_doc"`
	WireParseNsPerDoc     float64 `json:"wire_parse_ns_per_doc"`
	WireMarshalNsPerDoc   float64 `json:"wire_marshal_ns_per_doc"`
	ParseIterations       int     `json:"parse_iterations"`
	MarshalIterations     int     `json:"marshal_iterations"`
	WireParseIterations   int     `json:"wire_parse_iterations"`
	WireMarshalIterations int     `json:"wire_marshal_iterations"`
	// The taskspec Go library (module go/) on the same corpus: ParseYAML
	// and MarshalYAML on the generated message.
	LibParseNsPerDoc     float64 `json:"lib_parse_ns_per_doc"`
	LibMarshalNsPerDoc   float64 `json:"lib_marshal_ns_per_doc"`
	LibParseIterations   int     `json:"lib_parse_iterations"`
	LibMarshalIterations int     `json:"lib_marshal_iterations"`
	// Validate of the Go library on the generated message.
	LibValidateNsPerDoc   float64 `json:"lib_validate_ns_per_doc"`
	LibValidateIterations int     `json:"lib_validate_iterations"`
}

// Sinks keep the compiler from discarding benchmarked work.
var (
	sinkSpec  *eval.TaskSpec
	sinkBytes []byte
	sinkMsg   *taskspecv1.TaskSpec
)

// bench prepares every input up front (file bytes, parsed specs, proto
// messages and their wire bytes), then times the operations over the whole
// corpus, in turns (see measure), until each has done at least n passes and
// spent at least minTime. Only the operation itself runs inside the timed
// loop.
func bench(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	n := fs.Int("n", 1, "minimum number of passes over the corpus per operation")
	minTime := fs.Duration("min-time", time.Second, "minimum time per operation")
	ops := fs.String("ops", "parse,marshal,wire_parse,wire_marshal,lib_parse,lib_marshal,lib_validate",
		"comma-separated operations to time; the others report 0")
	each := fs.Bool("each", false,
		"time each file as a corpus of its own and print a JSON array, one result per file")
	cpuProfile := fs.String("cpuprofile", "",
		"write a CPU profile of the timed runs to this file (go tool pprof reads it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	files := fs.Args()
	if len(files) == 0 {
		return fmt.Errorf("bench: no input files")
	}
	if *n < 1 {
		*n = 1
	}
	if !*each {
		res, err := benchCorpus(files, *n, *minTime, *ops)
		if err != nil {
			return err
		}
		return json.NewEncoder(w).Encode(res)
	}
	results := make([]benchResult, 0, len(files))
	for _, name := range files {
		res, err := benchCorpus([]string{name}, *n, *minTime, *ops)
		if err != nil {
			return err
		}
		results = append(results, res)
	}
	return json.NewEncoder(w).Encode(results)
}

// benchCorpus times the operations in ops over the corpus of files.
func benchCorpus(files []string, n int, minTime time.Duration, ops string) (benchResult, error) {

	docs := make([][]byte, len(files))
	specs := make([]*eval.TaskSpec, len(files))
	msgs := make([]*taskspecv1.TaskSpec, len(files))
	wires := make([][]byte, len(files))
	for i, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return benchResult{}, fmt.Errorf("bench: %w", err)
		}
		spec, err := eval.ParseTaskSpec(data)
		if err != nil {
			return benchResult{}, fmt.Errorf("bench: %s: %w", name, err)
		}
		msg, err := taskspec.ParseYAML(data)
		if err != nil {
			return benchResult{}, fmt.Errorf("bench: %s: %w", name, err)
		}
		wire, err := proto.Marshal(msg)
		if err != nil {
			return benchResult{}, fmt.Errorf("bench: %s: %w", name, err)
		}
		docs[i], specs[i], msgs[i], wires[i] = data, spec, msg, wire
	}

	var failure error
	fail := func(err error) {
		if failure == nil {
			failure = err
		}
	}
	res := benchResult{Docs: len(files)}
	all := []timedOp{
		{"parse", &res.ParseNsPerDoc, &res.ParseIterations, func() {
			for _, d := range docs {
				s, err := eval.ParseTaskSpec(d)
				if err != nil {
					fail(err)
				}
				sinkSpec = s
			}
		}},
		{"marshal", &res.MarshalNsPerDoc, &res.MarshalIterations, func() {
			for _, s := range specs {
				b, err := s.MarshalYAML()
				if err != nil {
					fail(err)
				}
				sinkBytes = b
			}
		}},
		{"wire_parse", &res.WireParseNsPerDoc, &res.WireParseIterations, func() {
			for _, b := range wires {
				m := new(taskspecv1.TaskSpec)
				if err := proto.Unmarshal(b, m); err != nil {
					fail(err)
				}
				sinkMsg = m
			}
		}},
		{"wire_marshal", &res.WireMarshalNsPerDoc, &res.WireMarshalIterations, func() {
			for _, m := range msgs {
				b, err := proto.Marshal(m)
				if err != nil {
					fail(err)
				}
				sinkBytes = b
			}
		}},
		{"lib_parse", &res.LibParseNsPerDoc, &res.LibParseIterations, func() {
			for _, d := range docs {
				m, err := taskspec.ParseYAML(d)
				if err != nil {
					fail(err)
				}
				sinkMsg = m
			}
		}},
		{"lib_marshal", &res.LibMarshalNsPerDoc, &res.LibMarshalIterations, func() {
			for _, m := range msgs {
				b, err := taskspec.MarshalYAML(m)
				if err != nil {
					fail(err)
				}
				sinkBytes = b
			}
		}},
		{"lib_validate", &res.LibValidateNsPerDoc, &res.LibValidateIterations, func() {
			for _, m := range msgs {
				if err := taskspec.Validate(m); err != nil {
					fail(err)
				}
			}
		}},
	}
	want := map[string]bool{}
	for _, op := range strings.Split(ops, ",") {
		want[strings.TrimSpace(op)] = true
	}
	var chosen []timedOp
	for _, op := range all {
		if want[op.name] {
			chosen = append(chosen, op)
		}
	}
	measure(n, minTime, len(docs), chosen)
	if failure != nil {
		return benchResult{}, fmt.Errorf("bench: %w", failure)
	}
	return res, nil
}

// A timedOp is one operation over the whole corpus: its name, where
// measure writes its figures, and one pass.
type timedOp struct {
	name     string
	nsPerDoc *float64
	passes   *int
	pass     func()
}

// slices is the number of turns each operation gets in measure.
const slices = 10

// measure runs each operation's pass once untimed to warm up, then times
// the operations in turns: each gets slices turns of about minTime/slices,
// one after the other, until each has done at least n passes and spent at
// least minTime. Turns, rather than one operation after another, expose
// every operation alike to a machine whose speed drifts over seconds (a
// shared host, a CPU changing its clock), so the ratios between them hold
// where the absolute figures do not. Garbage is collected, untimed, before
// every turn, so no operation pays for another's garbage.
func measure(n int, minTime time.Duration, docs int, ops []timedOp) {
	for _, op := range ops {
		op.pass()
	}
	turn := minTime / slices
	spent := make([]time.Duration, len(ops))
	passes := make([]int, len(ops))
	for {
		done := true
		for i, op := range ops {
			if passes[i] >= n && spent[i] >= minTime {
				continue
			}
			done = false
			runtime.GC()
			start := time.Now()
			for {
				op.pass()
				passes[i]++
				if elapsed := time.Since(start); elapsed >= turn {
					spent[i] += elapsed
					break
				}
			}
		}
		if done {
			break
		}
	}
	for i, op := range ops {
		*op.nsPerDoc = float64(spent[i].Nanoseconds()) / float64(passes[i]) / float64(docs)
		*op.passes = passes[i]
	}
}
