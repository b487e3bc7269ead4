package taskspec_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
)

// The tables in tests/contract/ hold facts of the contract that are not in
// the proto; the Python tests read the same files, so that both libraries
// are held to one text.
func readContractTable(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "tests", "contract", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

type difficultyTable struct {
	Rubric []struct {
		Signal    string        `json:"signal"`
		Input     string        `json:"input"`
		Minimum   int           `json:"minimum"`
		EasyMax   int           `json:"easy_max"`
		MediumMax int           `json:"medium_max"`
		Message   string        `json:"message"`
		Code      taskspec.Code `json:"code"`
	} `json:"rubric"`
	Cases []difficultyCase `json:"cases"`
}

type difficultyCase struct {
	NodeCount  int              `json:"node_count"`
	EdgeCount  int              `json:"edge_count"`
	Cyclomatic int              `json:"cyclomatic"`
	Band       string           `json:"band"`
	Signals    map[string]int64 `json:"signals"`
	Violations []ruleViolation  `json:"violations"`
}

func (c difficultyCase) check(t *testing.T) {
	t.Helper()
	in := taskspec.DifficultyInputs{NodeCount: c.NodeCount, EdgeCount: c.EdgeCount, Cyclomatic: c.Cyclomatic}
	band, signals, err := taskspec.DeriveDifficulty(in)
	if len(c.Violations) > 0 {
		var verr *taskspec.ValidationError
		if !errors.As(err, &verr) {
			t.Fatalf("DeriveDifficulty(%+v) = %v, %v, %v; want a *ValidationError", in, band, signals, err)
		}
		if got := withoutPositions(verr.Violations); !reflect.DeepEqual(got, c.Violations) {
			t.Errorf("DeriveDifficulty(%+v) violations = %q, want %q", in, got, c.Violations)
		}
		if want := "taskspec: " + c.Violations[0].Message + moreProblems(len(c.Violations)-1); err.Error() != want {
			t.Errorf("DeriveDifficulty(%+v) = %q, want %q", in, err, want)
		}
		return
	}
	spelled, _ := taskspec.DifficultyString(band)
	if err != nil || spelled != c.Band || !reflect.DeepEqual(signals, c.Signals) {
		t.Errorf("DeriveDifficulty(%+v) = %v, %v, %v; want %s, %v", in, band, signals, err, c.Band, c.Signals)
	}
}

func TestDeriveDifficultyFollowsTheSharedTable(t *testing.T) {
	var table difficultyTable
	readContractTable(t, "difficulty.json", &table)
	if len(table.Cases) == 0 || len(table.Rubric) != 3 {
		t.Fatal("difficulty.json: no cases, or not three rubric rows")
	}
	for _, c := range table.Cases {
		c.check(t)
	}
	// Every boundary of every row, the other inputs at their minimum.
	keys := []string{taskspec.SignalInvolvedSymbols, taskspec.SignalEdgeCount, taskspec.SignalCyclomaticComplexity}
	for i, row := range table.Rubric {
		if row.Signal != keys[i] {
			t.Fatalf("rubric row %d is %s, want %s (the Go package's order of inputs)", i, row.Signal, keys[i])
		}
		for v, band := range map[int]string{
			row.Minimum: "easy", row.EasyMax: "easy", row.EasyMax + 1: "medium",
			row.MediumMax: "medium", row.MediumMax + 1: "hard", row.Minimum - 1: "",
		} {
			values := [3]int{table.Rubric[0].Minimum, table.Rubric[1].Minimum, table.Rubric[2].Minimum}
			values[i] = v
			c := difficultyCase{NodeCount: values[0], EdgeCount: values[1], Cyclomatic: values[2], Band: band}
			if band == "" {
				c.Violations = []ruleViolation{{Path: "difficulty_signals." + row.Signal, Message: fmt.Sprintf(row.Message, v), Code: row.Code}}
			} else {
				c.Signals = map[string]int64{keys[0]: int64(values[0]), keys[1]: int64(values[1]), keys[2]: int64(values[2])}
			}
			c.check(t)
		}
	}
}

type registryGen struct{ lang taskspecv1.Language }

func (g registryGen) Language() taskspecv1.Language { return g.lang }

func (registryGen) Generate(_ context.Context, _ *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error) {
	return nil, errors.New("not used")
}

func TestRegisterFollowsTheSharedTable(t *testing.T) {
	var table struct {
		Steps []struct {
			Generator bool   `json:"generator"`
			Language  string `json:"language"`
			Error     string `json:"error"`
		} `json:"steps"`
		Languages []string `json:"languages"`
	}
	readContractTable(t, "registry.json", &table)
	if len(table.Steps) == 0 {
		t.Fatal("registry.json: no steps")
	}
	var r taskspec.Registry
	for _, step := range table.Steps {
		var g taskspec.Generator
		if step.Generator {
			lang, err := taskspec.ParseLanguage(step.Language)
			if n, nerr := strconv.ParseInt(step.Language, 10, 32); err != nil && nerr == nil {
				lang, err = taskspecv1.Language(n), nil
			}
			if err != nil && step.Language != "" {
				t.Logf("%q is no Go Language: step left to the Python tests", step.Language)
				continue
			}
			g = registryGen{lang}
		}
		err := r.Register(g)
		switch {
		case step.Error == "" && err != nil:
			t.Errorf("Register(%q) = %v, want nil", step.Language, err)
		case step.Error != "" && (err == nil || err.Error() != "taskspec: "+step.Error):
			t.Errorf("Register(%q) = %v, want %q", step.Language, err, "taskspec: "+step.Error)
		}
	}
	var got []string
	for _, l := range r.Languages() {
		s, _ := taskspec.LanguageString(l)
		got = append(got, s)
	}
	if !reflect.DeepEqual(got, table.Languages) {
		t.Errorf("Languages = %q, want %q", got, table.Languages)
	}
}
