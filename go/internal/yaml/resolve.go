package yaml

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// The short tags Resolve gives, as yaml.v3 spells them.
const (
	NullTag      = "!!null"
	BoolTag      = "!!bool"
	StrTag       = "!!str"
	IntTag       = "!!int"
	FloatTag     = "!!float"
	TimestampTag = "!!timestamp"
	SeqTag       = "!!seq"
	MapTag       = "!!map"
	MergeTag     = "!!merge"
)

const longTagPrefix = "tag:yaml.org,2002:"

// ShortTag is yaml.v3's shortTag: "tag:yaml.org,2002:x" as "!!x", any
// other tag as it is.
func ShortTag(tag string) string {
	if strings.HasPrefix(tag, longTagPrefix) {
		return "!!" + tag[len(longTagPrefix):]
	}
	return tag
}

// words are the spellings yaml.v3's resolver looks up before numbers.
var words = map[string]struct {
	tag   string
	value any
}{}

func init() {
	for _, w := range []struct {
		tag   string
		value any
		l     []string
	}{
		{BoolTag, true, []string{"true", "True", "TRUE"}},
		{BoolTag, false, []string{"false", "False", "FALSE"}},
		{NullTag, nil, []string{"", "~", "null", "Null", "NULL"}},
		{FloatTag, math.NaN(), []string{".nan", ".NaN", ".NAN"}},
		{FloatTag, math.Inf(1), []string{".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}},
		{FloatTag, math.Inf(-1), []string{"-.inf", "-.Inf", "-.INF"}},
	} {
		for _, s := range w.l {
			words[s] = struct {
				tag   string
				value any
			}{w.tag, w.value}
		}
	}
}

// Resolve is the tag and value yaml.v3 v3.0.4 (resolve.go) gives the
// untagged plain scalar text: null, bool, int (Go's base-0 integers once
// every '_' is deleted, so 0x, 0o, 0b and a leading 0 for octal, in int64
// then uint64 range, then 0b/0o with a signed rest), float (YAML's
// spelling, within float64), timestamp (four layouts, the text as value)
// or string. The value is nil, a bool, an int64, a uint64, a float64, a
// time.Time or the text.
//
// A plain "<<" is the merge key: yaml.v3's parser tags it so before its
// resolver, which alone would say string.
func Resolve(text string) (string, any) {
	if text == "<<" {
		return MergeTag, text
	}
	hint := byte('M')
	if text != "" {
		switch c := text[0]; {
		case c == '+' || c == '-':
			hint = 'S'
		case c >= '0' && c <= '9':
			hint = 'D'
		case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
			hint = 'M'
		case c == '.':
			hint = '.'
		default:
			return StrTag, text
		}
	}
	if w, ok := words[text]; ok {
		return w.tag, w.value
	}
	switch hint {
	case '.':
		if f, err := strconv.ParseFloat(text, 64); err == nil {
			return FloatTag, f
		}
	case 'D', 'S':
		if t, ok := parseTimestamp(text); ok {
			return TimestampTag, t
		}
		plain := strings.ReplaceAll(text, "_", "")
		if v, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return IntTag, v
		}
		if v, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return IntTag, v
		}
		if yamlStyleFloat(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return FloatTag, f
			}
		}
		for _, base := range []struct {
			prefix string
			base   int
		}{{"0b", 2}, {"0o", 8}} {
			if strings.HasPrefix(plain, base.prefix) {
				if v, err := strconv.ParseInt(plain[2:], base.base, 64); err == nil {
					return IntTag, v
				}
				if v, err := strconv.ParseUint(plain[2:], base.base, 64); err == nil {
					return IntTag, v
				}
			} else if strings.HasPrefix(plain, "-"+base.prefix) {
				if v, err := strconv.ParseInt("-"+plain[3:], base.base, 64); err == nil {
					return IntTag, v
				}
			}
		}
	}
	return StrTag, text
}

// yamlStyleFloat matches ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
// (yaml.v3's yamlStyleFloat).
func yamlStyleFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

var timestampLayouts = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// parseTimestamp is yaml.v3's: four digits and '-', then one of its four
// layouts as time.Parse reads them.
func parseTimestamp(s string) (time.Time, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return time.Time{}, false
	}
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
