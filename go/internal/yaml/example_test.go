package yaml_test

import (
	"errors"
	"fmt"

	"github.com/taskspec/taskspec/go/internal/yaml"
)

func ExampleParse() {
	doc, err := yaml.Parse([]byte("task: &t gcd\nsteps: [build, *t]\n"), yaml.Options{MaxNodes: 100, MaxDepth: 10})
	if err != nil {
		panic(err)
	}
	root := doc.Root.Content[0]
	for i := 0; i < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		fmt.Printf("%s at line %d, column %d: kind %d\n", k.Value, v.Start.Line+1, v.Start.Column+1, v.Kind)
	}
	alias := root.Content[3].Content[1]
	fmt.Println(alias.Value, "->", alias.Alias.Value)
	// Output:
	// task at line 1, column 7: kind 4
	// steps at line 2, column 8: kind 2
	// t -> gcd
}

func ExampleError() {
	_, err := yaml.Parse([]byte("a: [b, c\nd: e\n"), yaml.Options{})
	var e *yaml.Error
	if errors.As(err, &e) {
		fmt.Printf("%s error: %s (line %d), %s at line %d, column %d\n", e.Kind, e.Context,
			e.ContextMark.Line+1, e.Problem, e.ProblemMark.Line+1, e.ProblemMark.Column+1)
	}
	// Output:
	// parser error: while parsing a flow sequence (line 1), did not find expected ',' or ']' at line 2, column 2
}

func ExampleResolve() {
	for _, s := range []string{"0x1F", "1_000", "0b-1", "1e400", "2001-12-14", "~", "yes"} {
		tag, v := yaml.Resolve(s)
		fmt.Printf("%s %s %v\n", s, tag, v)
	}
	// Output:
	// 0x1F !!int 31
	// 1_000 !!int 1000
	// 0b-1 !!int -1
	// 1e400 !!str 1e400
	// 2001-12-14 !!timestamp 2001-12-14 00:00:00 +0000 UTC
	// ~ !!null <nil>
	// yes !!str yes
}
