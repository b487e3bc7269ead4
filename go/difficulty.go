package taskspec

import (
	"fmt"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// signalBand is one row of the difficulty rubric: the signal key, the
// argument it comes from, its least valid value and the inclusive upper
// bounds of the easy and medium bands.
type signalBand struct {
	key, argument               string
	minimum, easyMax, mediumMax int
}

// rubric is the Python library's SIGNAL_BANDS (python/taskspec/_difficulty.py),
// row for row; TestDeriveDifficultyBoundaries pins every boundary.
//
//	signal key             argument    easy     medium   hard
//	involved_symbols       nodes       1 to 3   4 to 10  11+
//	edge_count             edges       0 to 4   5 to 12  13+
//	cyclomatic_complexity  cyclomatic  1 to 3   4 to 7   8+
var rubric = [3]signalBand{
	{"involved_symbols", "node_count", 1, 3, 10},
	{"edge_count", "edge_count", 0, 4, 12},
	{"cyclomatic_complexity", "cyclomatic", 1, 3, 7},
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
// Python, so that the same graph state always gives the same band. nodes is
// the number of symbols the task involves (at least 1: the target itself),
// edges the number of graph edges between them, cyclomatic the cyclomatic
// complexity of the target (at least 1). Each signal is banded on its own
// and the hardest band wins, because a task is as hard as its hardest
// aspect.
//
// The map is keyed involved_symbols, edge_count and cyclomatic_complexity,
// ready to be stored as spec.DifficultySignals. An argument below its
// minimum gives a *ValidationError listing every such argument, with the
// Python library's field paths and messages
// ("difficulty_signals.edge_count": "edge_count must be at least 0, got -1").
func DeriveDifficulty(nodes, edges, cyclomatic int) (taskspecv1.Difficulty, map[string]int64, error) {
	values := [3]int{nodes, edges, cyclomatic}
	var problems []Violation
	for i, row := range rubric {
		if values[i] < row.minimum {
			problems = append(problems, Violation{
				FieldPath: "difficulty_signals." + row.key,
				Message:   fmt.Sprintf("%s must be at least %d, got %d", row.argument, row.minimum, values[i]),
			})
		}
	}
	if problems != nil {
		return taskspecv1.Difficulty_DIFFICULTY_UNSPECIFIED, nil, &ValidationError{Violations: problems}
	}
	hardest := taskspecv1.Difficulty_DIFFICULTY_EASY
	signals := make(map[string]int64, len(rubric))
	for i, row := range rubric {
		signals[row.key] = int64(values[i])
		if b := row.band(values[i]); b > hardest {
			hardest = b
		}
	}
	return hardest, signals, nil
}
