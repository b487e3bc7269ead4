package yamlrules

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Some text yaml.v3 cannot read, libyaml (and so the Python library) can,
// and then refuses for a reason of its own: a %YAML directive other than
// 1.1, a '?' inside a plain scalar in [] or {}. Reporting yaml.v3's syntax
// error for them would give another problem than the Python library's;
// Stricter gives the same one. (The escape \/ in a double-quoted scalar,
// which libyaml reads too, is a syntax error in both libraries, where
// yaml.v3 meets it.)

var yamlDirective = regexp.MustCompile(`(?m)^%YAML[ \t]+(\d+)\.(\d+)`)

// Stricter returns the Python library's refusal of the text, which yaml.v3
// could not read (err), when it has one: either the refusal itself, or a
// copy of the text that yaml.v3 can read, with the same lines and columns,
// for the schema walk to refuse where the Python library does (with For's
// orig the text as written; see FlowQuestion). Both are nil when yaml.v3's
// error stands, as for a copy.
func (r *Rules) Stricter(err error) (p *Problem, copy []byte) {
	if r.orig != nil {
		return nil, nil
	}
	data := r.text.Bytes()
	switch {
	case strings.Contains(err.Error(), "incompatible YAML document"):
		if m := yamlDirective.FindSubmatchIndex(data); m != nil {
			major, _ := strconv.Atoi(string(data[m[2]:m[3]]))
			minor, _ := strconv.Atoi(string(data[m[4]:m[5]]))
			if major == 1 && minor != 1 { // libyaml refuses another major version
				line, _ := r.text.LineColumn(m[0])
				// At the document's start, as libyaml marks it: its first
				// directive.
				for line > 1 && len(r.text.Line(line-1)) > 0 && r.text.Line(line - 1)[0] == '%' {
					line--
				}
				return &Problem{Line: line, Column: 1, Message: fmt.Sprintf(
					"%%YAML %d.%d is not supported: yaml.v3 reads only YAML 1.1 documents (%%YAML 1.1, or no directive)", major, minor), Code: codeUnsupported}, nil
			}
		}
	case bytes.IndexByte(data, '?') >= 0:
		// The same text with such a '?' as 'Q', which yaml.v3 reads with
		// the same lines and columns; the walk refuses it where the Python
		// library does, from the text as written.
		if fixed := flowQuestionsOut(data); !bytes.Equal(fixed, data) {
			return nil, fixed
		}
	}
	return nil, nil
}
