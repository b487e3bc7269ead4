package taskspec

import (
	"fmt"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// The difficulty signal keys DeriveDifficulty writes: the keys of a spec's
// DifficultySignals.
const (
	SignalInvolvedSymbols      = "involved_symbols"
	SignalEdgeCount            = "edge_count"
	SignalCyclomaticComplexity = "cyclomatic_complexity"
)

// DifficultyInputs are the knowledge-graph measurements of a task that
// DeriveDifficulty bands. They are named fields, so that swapped counts
// cannot compile silently.
type DifficultyInputs struct {
	// NodeCount is the number of symbols the task involves, the seed
	// symbol itself included: at least 1.
	NodeCount int
	// EdgeCount is the number of graph edges between those symbols: at
	// least 0.
	EdgeCount int
	// Cyclomatic is the cyclomatic-complexity proxy of the target: at
	// least 1.
	Cyclomatic int
}

// signalBand is one row of the difficulty rubric: the signal key, the input
// it comes from, its least valid value, the inclusive upper bounds of the
// easy and medium bands, and the Go package's message for a value below the
// minimum.
type signalBand struct {
	key                         string
	minimum, easyMax, mediumMax int
	message                     string
	input                       func(DifficultyInputs) int
}

// rubric is the Python library's SIGNAL_BANDS (python/taskspec/_difficulty.py)
// in the order the Go package checks its inputs; tests/contract/difficulty.json
// holds it, with cases both libraries' tests run.
//
//	signal key             input       easy     medium   hard
//	involved_symbols       NodeCount   1 to 3   4 to 10  11+
//	edge_count             EdgeCount   0 to 4   5 to 12  13+
//	cyclomatic_complexity  Cyclomatic  1 to 3   4 to 7   8+
var rubric = [3]signalBand{
	{SignalInvolvedSymbols, 1, 3, 10, "difficulty node count must be at least 1 (the seed itself), got %d",
		func(in DifficultyInputs) int { return in.NodeCount }},
	{SignalEdgeCount, 0, 4, 12, "difficulty edge count must be non-negative, got %d",
		func(in DifficultyInputs) int { return in.EdgeCount }},
	{SignalCyclomaticComplexity, 1, 3, 7, "difficulty cyclomatic proxy must be at least 1, got %d",
		func(in DifficultyInputs) int { return in.Cyclomatic }},
}

func (b signalBand) band(v int) taskspecv1.Difficulty {
	switch {
	case v <= b.easyMax:
		return taskspecv1.Difficulty_DIFFICULTY_EASY
	case v <= b.mediumMax:
		return taskspecv1.Difficulty_DIFFICULTY_MEDIUM
	}
	return taskspecv1.Difficulty_DIFFICULTY_HARD
}

// DeriveDifficulty returns the difficulty band of a task and the signals it
// was derived from, by the one rubric every generator uses, in Go or
// Python, so that the same graph state always gives the same band. Each
// signal is banded on its own and the hardest band wins, because a task is
// as hard as its hardest aspect.
//
// The map is keyed [SignalInvolvedSymbols], [SignalEdgeCount] and
// [SignalCyclomaticComplexity], ready to be stored as
// spec.DifficultySignals. An input below its minimum gives a
// [*ValidationError] listing every such input, in the order NodeCount,
// EdgeCount, Cyclomatic, each with its signal's field path
// ("difficulty_signals.edge_count") and the code [CodeAtLeast]; its message
// is the first one's ("taskspec: difficulty node count must be at least 1
// (the seed itself), got 0"), then how many more there are.
func DeriveDifficulty(in DifficultyInputs) (taskspecv1.Difficulty, map[string]int64, error) {
	var problems []Violation
	for _, row := range rubric {
		if v := row.input(in); v < row.minimum {
			problems = append(problems, Violation{
				FieldPath: "difficulty_signals." + row.key,
				Message:   fmt.Sprintf(row.message, v),
				Code:      CodeAtLeast,
				Severity:  SeverityError,
			})
		}
	}
	if problems != nil {
		return taskspecv1.Difficulty_DIFFICULTY_UNSPECIFIED, nil, &ValidationError{Violations: problems}
	}
	hardest := taskspecv1.Difficulty_DIFFICULTY_EASY
	signals := make(map[string]int64, len(rubric))
	for _, row := range rubric {
		v := row.input(in)
		signals[row.key] = int64(v)
		if b := row.band(v); b > hardest {
			hardest = b
		}
	}
	return hardest, signals, nil
}
