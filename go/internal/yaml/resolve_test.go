package yaml

import (
	"fmt"
	"math"
	"testing"
	"time"

	yamlv3 "go.yaml.in/yaml/v3"
)

// TestResolveAsYAMLv3 resolves plain scalars, the forms yaml.v3's resolver
// treats specially among them, and compares tag and value with what
// yaml.v3 gives the same text.
func TestResolveAsYAMLv3(t *testing.T) {
	for _, text := range []string{
		"", "~", "null", "Null", "NULL", "nULL", "true", "True", "TRUE", "false", "yes", "no", "on", "off", "y",
		"0", "12", "+12", "-12", "012", "019", "0x1F", "0X1f", "0x_1F", "0o17", "-0o17", "0o-17", "0b101", "0b-1", "-0b11",
		"1_000", "_1", "1__0", "9223372036854775807", "9223372036854775808", "18446744073709551615",
		"18446744073709551616", "-9223372036854775808", "-9223372036854775809",
		"1.5", "1.", ".5", "-.5", "+.5", "1e3", "1.5e+3", "1E-3", "1e400", "-1e400", "1_0.5", "0x1p3", "1e", ".",
		".inf", ".Inf", "+.inf", "-.INF", ".nan", ".NaN", "inf", "nan", "Infinity",
		"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "2001-02-30", "2001-1-2",
		"20011-12-14", "2001-12-14T21:59:43Z", "<<", "abc", "+", "0x", "0o", "0b", "١٢",
	} {
		tag, value := Resolve(text)
		var doc yamlv3.Node
		if err := yamlv3.Unmarshal([]byte("x: "+text+"\n"), &doc); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if want := doc.Content[0].Content[1].Tag; tag != want {
			t.Errorf("%q: tag %s, yaml.v3's %s", text, tag, want)
		}
		var v map[string]any
		if err := yamlv3.Unmarshal([]byte("x: "+text+"\n"), &v); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if got, want := normal(value), normal(v["x"]); got != want && tag != MergeTag {
			t.Errorf("%q: value %s, yaml.v3's %s", text, got, want)
		}
	}
}

// normal is v as text, an int, int64 or uint64 by its number, a float
// with its bits, so that equal values compare equal whatever Go type holds
// them.
func normal(v any) string {
	switch v := v.(type) {
	case int:
		return fmt.Sprint(v)
	case int64:
		return fmt.Sprint(v)
	case float64:
		if math.IsNaN(v) {
			return "NaN"
		}
		return fmt.Sprintf("float %x", math.Float64bits(v))
	case time.Time:
		return v.Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("%T %v", v, v)
}
