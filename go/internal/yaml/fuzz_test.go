package yaml

import (
	"testing"
)

// FuzzReadLikeYAMLv3 reads random texts with the reader and with yaml.v3.
// The reader never panics, its marks' byte offsets are where their
// character indexes are, and where both accept a text their trees are
// equal, and where they differ the difference is one of the named ones
// (see the package doc). The corpus starts from the fixture's cases and
// documents and the texts earlier fuzzing found (testdata/fuzz_inputs.json).
func FuzzReadLikeYAMLv3(f *testing.F) {
	fixture := loadFixture(f)
	for _, c := range fixture.Cases {
		f.Add(c.data(f))
	}
	for _, data := range fuzzInputs(f) {
		f.Add(data)
	}
	for _, file := range fixture.Files {
		if data := fileData(f, file.Name); len(data) <= 4096 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		if doc, err := Parse(data, Options{}); err == nil {
			if d := checkOffsets(data, doc); d != "" {
				t.Errorf("%q: %s", data, d)
			}
		}
		diff := compare(data)
		if diff == "" {
			return
		}
		if classify(data, diff) == "" {
			t.Errorf("%q: %s, and no named difference explains it", data, diff)
		}
	})
}
