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
}

// Sinks keep the compiler from discarding benchmarked work.
var (
	sinkSpec  *eval.TaskSpec
	sinkBytes []byte
	sinkMsg   *taskspecv1.TaskSpec
)

// bench prepares every input up front (file bytes, parsed specs, proto
// messages and their wire bytes), then times each operation over the whole
// corpus, pass after pass, until it has done at least n passes and spent at
// least minTime. Only the operation itself runs inside the timed loop.
func bench(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	n := fs.Int("n", 1, "minimum number of passes over the corpus per operation")
	minTime := fs.Duration("min-time", time.Second, "minimum time per operation")
	ops := fs.String("ops", "parse,marshal,wire_parse,wire_marshal,lib_parse,lib_marshal",
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

	want := map[string]bool{}
	for _, op := range strings.Split(ops, ",") {
		want[strings.TrimSpace(op)] = true
	}
	timed := func(op string, pass func()) (float64, int) {
		if !want[op] {
			return 0, 0
		}
		return measure(n, minTime, len(docs), pass)
	}

	var failure error
	fail := func(err error) {
		if failure == nil {
			failure = err
		}
	}
	res := benchResult{Docs: len(files)}
	res.ParseNsPerDoc, res.ParseIterations = timed("parse", func() {
		for _, d := range docs {
			s, err := eval.ParseTaskSpec(d)
			if err != nil {
				fail(err)
			}
			sinkSpec = s
		}
	})
	res.MarshalNsPerDoc, res.MarshalIterations = timed("marshal", func() {
		for _, s := range specs {
			b, err := s.MarshalYAML()
			if err != nil {
				fail(err)
			}
			sinkBytes = b
		}
	})
	res.WireParseNsPerDoc, res.WireParseIterations = timed("wire_parse", func() {
		for _, b := range wires {
			m := new(taskspecv1.TaskSpec)
			if err := proto.Unmarshal(b, m); err != nil {
				fail(err)
			}
			sinkMsg = m
		}
	})
	res.WireMarshalNsPerDoc, res.WireMarshalIterations = timed("wire_marshal", func() {
		for _, m := range msgs {
			b, err := proto.Marshal(m)
			if err != nil {
				fail(err)
			}
			sinkBytes = b
		}
	})
	res.LibParseNsPerDoc, res.LibParseIterations = timed("lib_parse", func() {
		for _, d := range docs {
			m, err := taskspec.ParseYAML(d)
			if err != nil {
				fail(err)
			}
			sinkMsg = m
		}
	})
	res.LibMarshalNsPerDoc, res.LibMarshalIterations = timed("lib_marshal", func() {
		for _, m := range msgs {
			b, err := taskspec.MarshalYAML(m)
			if err != nil {
				fail(err)
			}
			sinkBytes = b
		}
	})
	if failure != nil {
		return benchResult{}, fmt.Errorf("bench: %w", failure)
	}
	return res, nil
}

// measure runs pass once untimed to warm up, collects garbage, then runs it
// until both limits are met and returns nanoseconds per document and the
// number of timed passes.
func measure(n int, minTime time.Duration, docs int, pass func()) (float64, int) {
	pass()
	runtime.GC()
	iters := 0
	start := time.Now()
	for {
		pass()
		iters++
		if elapsed := time.Since(start); iters >= n && elapsed >= minTime {
			return float64(elapsed.Nanoseconds()) / float64(iters) / float64(docs), iters
		}
	}
}
