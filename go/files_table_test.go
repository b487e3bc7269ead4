package taskspec_test

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	taskspec "github.com/taskspec/taskspec/go"
)

// fileCase is one case of tests/contract/files.json: a file named Name
// holding Text or Base64, read in Format when one is given, and what
// reading it gives: the spec as canonical JSON, or the first problem.
type fileCase struct {
	Description string       `json:"description"`
	Name        string       `json:"name"`
	Format      string       `json:"format"`
	Text        *string      `json:"text"`
	Base64      *string      `json:"base64"`
	JSON        *string      `json:"json"`
	Problem     *fileProblem `json:"problem"`
}

type fileProblem struct {
	Code      string `json:"code"`
	FieldPath string `json:"field_path"`
	Message   string `json:"message"`
	Hint      string `json:"hint"`
}

func (c fileCase) data(t *testing.T) []byte {
	t.Helper()
	switch {
	case c.Text != nil:
		return []byte(*c.Text)
	case c.Base64 != nil:
		data, err := base64.StdEncoding.DecodeString(*c.Base64)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	t.Fatalf("%s: neither text nor base64", c.Description)
	return nil
}

// firstProblem is the first problem err carries, from whichever of this
// package's error types holds it; an error of none of them (an unknown
// format's name) is its text alone.
func firstProblem(err error) (taskspec.Violation, bool) {
	var ferr *taskspec.FormatError
	var de *taskspec.DecodeError
	var verr *taskspec.ValidationError
	switch {
	case errors.As(err, &ferr):
		return ferr.Violation, true
	case errors.As(err, &de) && len(de.Violations) > 0:
		return de.Violations[0], true
	case errors.As(err, &verr) && len(verr.Violations) > 0:
		return verr.Violations[0], true
	}
	return taskspec.Violation{Message: err.Error()}, false
}

// TestFilesTable runs every case of the shared table through Load (or
// LoadFormat), and LoadFS over the same directory, which the Python suite
// runs through taskspec.load.
func TestFilesTable(t *testing.T) {
	var table struct {
		Cases []fileCase `json:"cases"`
	}
	readContractTable(t, "files.json", &table)
	if len(table.Cases) < 20 {
		t.Fatalf("files.json holds %d cases", len(table.Cases))
	}
	for _, c := range table.Cases {
		t.Run(c.Description, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.Name)
			if err := os.WriteFile(path, c.data(t), 0o600); err != nil {
				t.Fatal(err)
			}
			check := func(how, name string, spec interface{ GetTaskId() string }, got []byte, err error) {
				t.Helper()
				switch {
				case c.JSON != nil && err != nil:
					t.Errorf("%s: %v, want the spec", how, err)
				case c.JSON != nil && string(got) != *c.JSON:
					t.Errorf("%s: read\n%s\nwant\n%s", how, got, *c.JSON)
				case c.Problem != nil && err == nil:
					t.Errorf("%s: read %q, want %s", how, spec.GetTaskId(), c.Problem.Code)
				case c.Problem != nil:
					v, typed := firstProblem(err)
					p := *c.Problem
					if !typed {
						// Not a problem of the catalogue (no code): its words end the error.
						if p.Code != "" || !strings.HasSuffix(v.Message, p.Message+"; "+p.Hint) {
							t.Errorf("%s: %v, want %+v", how, err, p)
						}
						return
					}
					if got := (fileProblem{string(v.Code), v.FieldPath, v.Message, v.Hint}); got != p {
						t.Errorf("%s: %+v\nwant %+v", how, got, p)
					}
					if !strings.HasPrefix(err.Error(), name+": ") {
						t.Errorf("%s: the error does not name the file: %v", how, err)
					}
				}
			}
			var got []byte
			spec, err := taskspec.Load(path)
			how := "Load"
			if c.Format != "" {
				spec, err = taskspec.LoadFormat(path, taskspec.Format(c.Format))
				how = "LoadFormat"
			}
			if err == nil {
				if got, err = taskspec.MarshalJSON(spec); err != nil {
					t.Fatal(err)
				}
			}
			check(how, path, spec, got, err)
			if c.Format != "" {
				return
			}
			spec, err = taskspec.LoadFS(os.DirFS(dir), c.Name)
			got = nil
			if err == nil {
				if got, err = taskspec.MarshalJSON(spec); err != nil {
					t.Fatal(err)
				}
			}
			check("LoadFS", c.Name, spec, got, err) // it names the file as given to it
		})
	}
}

// TestSaveThenLoadInEachFormat saves a spec under a name of each format:
// the file holds that format's canonical bytes, which the Python
// library's save writes too (tests/test_files_table.py compares them),
// and Load reads the same spec back.
func TestSaveThenLoadInEachFormat(t *testing.T) {
	spec := validSpec()
	spec.DifficultySignals = map[string]int64{"z10": -3, "a9": 1}
	for name, f := range map[string]taskspec.Format{
		"taskspec.yaml": taskspec.YAML, "t.YML": taskspec.YAML, "t.taskspec.json": taskspec.JSON,
		"t.binpb": taskspec.Binpb, "t.PB": taskspec.Binpb,
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, name)
		if err := taskspec.Save(path, spec); err != nil {
			t.Fatalf("Save(%s): %v", name, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := taskspec.Marshal(spec, f); string(data) != string(want) {
			t.Errorf("Save(%s) wrote\n%q\nwant %s's\n%q", name, data, f, want)
		}
		got, err := taskspec.Load(path)
		if err != nil || !proto.Equal(got, spec) {
			t.Errorf("Load(%s) = %v, %v", name, got, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("Save(%s) left %v", name, entries)
		}
	}
}

func TestSaveFormatOverridesTheName(t *testing.T) {
	spec := validSpec()
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := taskspec.SaveFormat(path, spec, taskspec.JSON); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want, _ := taskspec.MarshalJSON(spec); string(data) != string(want) {
		t.Errorf("SaveFormat wrote %q", data)
	}
	if got, err := taskspec.LoadFormat(path, taskspec.JSON); err != nil || !proto.Equal(got, spec) {
		t.Errorf("LoadFormat = %v, %v", got, err)
	}
	if got, err := taskspec.ReadFormat(strings.NewReader(string(data)), taskspec.JSON); err != nil || !proto.Equal(got, spec) {
		t.Errorf("ReadFormat = %v, %v", got, err)
	}
	var de *taskspec.DecodeError
	if _, err := taskspec.Load(path); !errors.As(err, &de) { // read as YAML, as its name says
		t.Errorf("Load of JSON named .yaml = %v", err)
	}
}

// TestSaveRefusesWhatItCannotName: a name that names no format, or a
// format that does not exist, is refused before the spec is even
// validated, and nothing is written.
func TestSaveRefusesWhatItCannotName(t *testing.T) {
	dir := t.TempDir()
	invalid := validSpec()
	invalid.Prompt = ""
	for _, name := range []string{"spec.txt", "taskspec", "taskspec.yaml.bak"} {
		err := taskspec.Save(filepath.Join(dir, name), invalid)
		var ferr *taskspec.FormatError
		if !errors.As(err, &ferr) || ferr.Violation.Code != "TS903" || ferr.Path != filepath.Join(dir, name) {
			t.Errorf("Save(%s) = %v", name, err)
		}
		if k, ok := taskspec.LookupProblem(ferr.Violation.Code); !ok || k.Stage != "file" {
			t.Errorf("%s is not a file problem of the catalogue", ferr.Violation.Code)
		}
	}
	if err := taskspec.SaveFormat(filepath.Join(dir, "spec.yaml"), invalid, "toml"); err == nil ||
		!strings.HasSuffix(err.Error(), `unknown format "toml"; expected one of: yaml, json, binpb`) {
		t.Errorf("SaveFormat(toml) = %v", err)
	}
	if _, err := taskspec.LoadFormat(filepath.Join(dir, "missing.yaml"), "toml"); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadFormat(toml) = %v, want the format refused before the file is opened", err)
	}
	if _, err := taskspec.ReadFormat(strings.NewReader(""), "toml"); err == nil {
		t.Error("ReadFormat(toml) read")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}

// TestSaveRefusesJSONOverTheLimit: a prompt of 9 MiB of '"' is 9 MiB of
// YAML, within the limit, and 18 MiB of JSON, over it.
func TestSaveRefusesJSONOverTheLimit(t *testing.T) {
	spec := validSpec()
	spec.Prompt = strings.Repeat(`"`, 9<<20)
	dir := t.TempDir()
	err := taskspec.Save(filepath.Join(dir, "spec.json"), spec)
	var werr *taskspec.WriteError
	if !errors.As(err, &werr) || werr.FieldPath != "prompt" || !strings.HasPrefix(werr.Message, "cannot write: the JSON would be") {
		t.Errorf("Save = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %v", entries)
	}
}
