package taskspec_test

import (
	"fmt"

	taskspec "github.com/taskspec/taskspec/go"
)

// A problem with one safe fix carries it; ApplyFixes writes the fixes in
// and changes nothing else, comments and layout included.
func ExampleApplyFixes() {
	doc := []byte("task_spec_version: 1\ntask_id: t1\nlanguag: go  # the language\ndifficulty: Easy\n" +
		"generated_from: {kind: kg_template}\nprompt: Implement gcd.\nverification: {test_cmd: [go, test]}\n")
	problems := taskspec.Check(doc)
	for _, v := range problems {
		if f := v.Fix; f != nil {
			fmt.Printf("%s %s: %q at %d:%d-%d:%d\n", v.Code, v.FieldPath, f.Text, f.StartLine, f.StartColumn, f.EndLine, f.EndColumn)
		}
	}
	fixed := taskspec.ApplyFixes(doc, problems)
	fmt.Print(string(fixed))
	fmt.Println(len(taskspec.Check(fixed)), "problems left")
	// Output:
	// TS001 languag: "language" at 3:1-3:8
	// TS103 difficulty: "easy" at 4:13-4:17
	// task_spec_version: 1
	// task_id: t1
	// language: go  # the language
	// difficulty: easy
	// generated_from: {kind: kg_template}
	// prompt: Implement gcd.
	// verification: {test_cmd: [go, test]}
	// 0 problems left
}

// A Fix names the span it replaces as an editor counts it; a program can
// make one too, and ApplyFixes writes it in like any other.
func ExampleFix() {
	doc := []byte("task_id: t1\r\nprompt: @owner fix the build\r\n")
	for _, v := range taskspec.Check(doc) {
		if v.Fix != nil {
			fmt.Printf("%s line %d: %s\n", v.Code, v.Fix.StartLine, v.Fix.Text)
		}
	}
	own := taskspec.Violation{Fix: &taskspec.Fix{Text: "t2", StartLine: 1, StartColumn: 10, EndLine: 1, EndColumn: 12}}
	fmt.Printf("%q\n", taskspec.ApplyFixes(doc, []taskspec.Violation{own}))
	// Output:
	// TS011 line 2: "@owner fix the build"
	// "task_id: t2\r\nprompt: @owner fix the build\r\n"
}
