// Command taskspec-conform is the Go side of the TaskSpec conformance
// tests. It drives the eval stand-in package and the generated protobuf
// message on behalf of the Python tests and benchmarks.
//
// Usage:
//
//	taskspec-conform serve
//	taskspec-conform bench [-n N] [-min-time D] [-ops OPS] [-each] FILE...
//
// serve reads JSON Lines requests on stdin and writes exactly one JSON line
// per request on stdout, flushing after each; see serve.go for the
// protocol. bench times ParseTaskSpec, MarshalYAML, proto.Unmarshal,
// proto.Marshal and the taskspec library's ParseYAML and MarshalYAML over a
// corpus of YAML files and prints one JSON line.
package main

import (
	"fmt"
	"os"
)

func usage() {
	fmt.Fprintf(os.Stderr, "usage:\n  taskspec-conform serve\n  taskspec-conform bench [-n N] [-min-time D] [-ops OPS] [-each] FILE...\n")
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		if len(os.Args) != 2 {
			usage()
			os.Exit(2)
		}
		err = serve(os.Stdin, os.Stdout)
	case "bench":
		err = bench(os.Args[2:], os.Stdout)
	case "-h", "-help", "--help", "help":
		usage()
		return
	default:
		fmt.Fprintf(os.Stderr, "taskspec-conform: unknown subcommand %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "taskspec-conform: %v\n", err)
		os.Exit(1)
	}
}
