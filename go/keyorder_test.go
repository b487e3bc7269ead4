package taskspec_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	taskspec "github.com/taskspec/taskspec/go"
)

// keyOrders reads tests/data/emit/key_orders.json, which the Python tests
// read too: "orders" are key sets in the order yaml.v3 writes them (recorded
// from Go), "fixed" are sets yaml.v3 orders cyclically, in the one order
// both libraries write for them instead.
func keyOrders(t *testing.T) (orders, fixed [][]string) {
	t.Helper()
	raw, err := os.ReadFile("../tests/data/emit/key_orders.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Orders [][]string `json:"orders"`
		Fixed  [][]string `json:"fixed"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Orders) == 0 || len(table.Fixed) == 0 {
		t.Fatalf("key_orders.json: %d orders, %d fixed", len(table.Orders), len(table.Fixed))
	}
	return table.Orders, table.Fixed
}

// writtenKeys marshals a spec with keys as its difficulty_signals and
// returns the keys in the order written.
func writtenKeys(t *testing.T, keys []string) ([]string, []byte) {
	t.Helper()
	spec := validSpec()
	spec.DifficultySignals = map[string]int64{}
	for i, k := range keys {
		spec.DifficultySignals[k] = int64(i)
	}
	out, err := taskspec.MarshalYAML(spec)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Signals yaml.Node `yaml:"difficulty_signals"`
	}
	if err := yaml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for i := 0; i < len(doc.Signals.Content); i += 2 {
		got = append(got, doc.Signals.Content[i].Value)
	}
	return got, out
}

func TestSignalKeysInYAMLv3Order(t *testing.T) {
	orders, fixed := keyOrders(t)
	for _, set := range [][][]string{orders, fixed} {
		for _, want := range set {
			// Go's map iteration order is random: many runs must all
			// give the one order.
			var first []byte
			for run := 0; run < 30; run++ {
				got, out := writtenKeys(t, want)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("run %d: keys written as %q, want %q", run, got, want)
				}
				if first == nil {
					first = out
				} else if !bytes.Equal(out, first) {
					t.Fatalf("run %d: bytes differ:\n%s\n%s", run, out, first)
				}
			}
			back, err := taskspec.DecodeYAML(first)
			if err != nil {
				t.Fatalf("%q: the written document does not read back: %v", want, err)
			}
			if len(back.DifficultySignals) != len(want) {
				t.Fatalf("%q: read back %d signals", want, len(back.DifficultySignals))
			}
			for i, k := range want {
				if back.DifficultySignals[k] != int64(i) {
					t.Fatalf("%q: signal %q read back as %d", want, k, back.DifficultySignals[k])
				}
			}
		}
	}
}
