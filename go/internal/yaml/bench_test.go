package yaml

import (
	"bytes"
	"testing"

	yamlv3 "go.yaml.in/yaml/v3"
)

// BenchmarkParse reads the example sidecar and a 1,000-item flow sequence
// with the reader and, for scale, with yaml.v3 into a Node.
func BenchmarkParse(b *testing.B) {
	example := fileData(b, "examples/go.taskspec.yaml")
	flow := append([]byte("["), bytes.Repeat([]byte("item, "), 1000)...)
	flow = append(flow, "x]\n"...)
	for _, c := range []struct {
		name string
		data []byte
	}{{"example", example}, {"flow1000", flow}} {
		b.Run(c.name+"/ours", func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for range b.N {
				if _, err := Parse(c.data, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/yamlv3", func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			for range b.N {
				var n yamlv3.Node
				if err := yamlv3.Unmarshal(c.data, &n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
