package taskspec

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	forms "github.com/taskspec/taskspec/go/internal/catalogue"
	"github.com/taskspec/taskspec/go/internal/jsonread"
)

// A Format is an encoding of a TaskSpec; its value is its name on the
// command line ("yaml", "json", "binpb").
type Format string

// The three encodings of a TaskSpec. All carry the same information, so
// conversion between them is lossless.
const (
	YAML  Format = "yaml"  // canonical YAML, MarshalYAML's bytes
	JSON  Format = "json"  // proto3 JSON with lowerCamelCase names
	Binpb Format = "binpb" // binary protobuf, serialized deterministically
)

var formats = []Format{YAML, JSON, Binpb}

// ParseFormat returns the Format named name ("yaml", "json" or "binpb"),
// or an error that lists the names for any other name.
func ParseFormat(name string) (Format, error) {
	for _, f := range formats {
		if string(f) == name {
			return f, nil
		}
	}
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("%sunknown format %q; expected one of: %s", errPrefix, name, strings.Join(names, ", "))
}

// FormatForPath returns the format a file name's extension names,
// case-insensitively (.yaml and .yml, .json, .binpb and .pb), and false for
// any other name. Load and Save read and write a file in this format.
func FormatForPath(path string) (Format, bool) {
	ext := filepath.Ext(path)
	for _, e := range extensions {
		if strings.EqualFold(ext, e.ext) {
			return e.format, true
		}
	}
	return "", false
}

// extensions are the file name extensions and the formats they name, in
// the order a message lists them, as the Python library's format_for_path
// knows them.
var extensions = []struct {
	ext    string
	format Format
}{{".yaml", YAML}, {".yml", YAML}, {".json", JSON}, {".binpb", Binpb}, {".pb", Binpb}}

// ParseJSON decodes a proto3 JSON TaskSpec strictly and validates it.
//
// Both the lowerCamelCase names and the proto field names are accepted, as
// proto3 JSON requires, and so are enum values by name or number and
// 64-bit integers as numbers or strings. Refused with a *DecodeError that
// names the field path (and, for a syntax error, the line and column):
// input over MaxDocumentBytes or not UTF-8, anything but an object at the
// top, a key given twice in one object, a field given under both of its
// names, NaN and Infinity, unknown fields (the message lists the fields
// expected there), and values of the wrong type. A UTF-8 byte order mark
// is allowed. A spec that breaks a rule gives a *ValidationError, as from
// Validate.
func ParseJSON(data []byte) (*taskspecv1.TaskSpec, error) {
	spec, err := readJSON(data, nil)
	if err == nil {
		err = Validate(spec)
	}
	if err != nil {
		return nil, allProblems(err, data, JSON)
	}
	return spec, nil
}

// ParseBinpb decodes a binary protobuf TaskSpec and validates it. Bytes
// that are not a TaskSpec give a
// *DecodeError: invalid wire data, a string that is not UTF-8, and any
// field the schema does not have (protobuf would keep it as opaque bytes
// that YAML cannot carry), or a known field with the wrong wire type, both
// named by their path. A singular field given twice keeps its last value,
// as the protobuf encoding specifies. A spec that breaks a rule gives a
// *ValidationError.
func ParseBinpb(data []byte) (*taskspecv1.TaskSpec, error) {
	spec, err := decodeBinpb(data)
	if err == nil {
		err = Validate(spec)
	}
	if err != nil {
		return nil, allProblems(err, data, Binpb)
	}
	return spec, nil
}

// allProblems is the error of a document in format f that failed to read
// with err: every problem of CheckFormat, the one err stopped at first, so
// that its Error() does not change, as the Python library's parse_json and
// parse_binpb raise them. It is a *DecodeError when any problem is of the
// decode stage, else a *ValidationError.
func allProblems(err error, data []byte, f Format) error {
	first := errorProblems(err)[0]
	problems := CheckFormat(data, f)
	i := slices.IndexFunc(problems, func(v Violation) bool {
		return v.Code == first.Code && v.FieldPath == first.FieldPath && v.Message == first.Message
	})
	if i >= 0 {
		problems = append([]Violation{problems[i]}, slices.Delete(slices.Clone(problems), i, i+1)...)
	} else {
		problems = append([]Violation{first}, problems...)
	}
	for _, v := range problems {
		if k := catalogue[v.Code]; k != nil && k.Stage == "decode" {
			de := newDecodeError(problems, nil)
			de.prefix = errPrefix
			return de
		}
	}
	return &ValidationError{Violations: problems}
}

// readJSON reads data as proto3 JSON into a message, not validated, as the
// Python library's read_json does (internal/jsonread reads it, once its
// size and encoding are checked here). With problems nil, the first decode
// problem is the error. Else every unknown key, field given twice and
// value of the wrong type is added to *problems and left out of the
// message, so that all of them are found in one run (read_json's
// collect=True); JSON that cannot be read is still the error, alone.
func readJSON(data []byte, problems *[]Violation) (*taskspecv1.TaskSpec, error) {
	if len(data) > MaxDocumentBytes {
		return nil, decodeError("", CodeLimit, forms.MsgLimitBytes.Render(forms.Args{"n": strconv.Itoa(MaxDocumentBytes)}))
	}
	bom := 0
	if len(data) >= 3 && string(data[:3]) == byteOrderMark {
		bom = 3
	}
	if at := invalidUTF8At(data[bom:]); at < len(data)-bom {
		return nil, decodeError("", CodeEncoding, forms.MsgEncodingNotUTF8.Render(forms.Args{
			"byte": fmt.Sprintf("0x%02x", data[bom+at]), "offset": strconv.Itoa(bom + at)}))
	}
	spec, found, stop := jsonread.Read(string(data[bom:]), MaxDepth)
	switch {
	case stop != nil:
		return nil, oneProblem(jsonViolation(*stop))
	case problems != nil:
		for _, p := range found {
			*problems = append(*problems, jsonViolation(p))
		}
	case len(found) > 0:
		return nil, oneProblem(jsonViolation(found[0]))
	}
	return spec, nil
}

// jsonViolation is the Violation of a problem of the JSON reader.
func jsonViolation(p jsonread.Problem) Violation {
	return Violation{FieldPath: p.Path, Message: p.Message, Hint: p.Hint, Line: p.Line, Column: p.Column,
		Code: codeOf(protoreflect.EnumNumber(p.Code)), Severity: SeverityError}
}

// oneProblem is the *DecodeError of problem v.
func oneProblem(v Violation) *DecodeError {
	v.Severity = SeverityError
	de := newDecodeError([]Violation{v}, nil)
	de.prefix = errPrefix
	return de
}

// decodeBinpb reads data as a binary protobuf TaskSpec, without Validate.
func decodeBinpb(data []byte) (*taskspecv1.TaskSpec, error) {
	return readBinpb(data, nil)
}

// readBinpb is decodeBinpb that, with problems not nil, adds every unknown
// field and field of the wrong wire type to *problems instead of failing
// on the first, as the Python library's read_binpb(collect=True) does;
// data that is not protobuf at all is still the error.
func readBinpb(data []byte, problems *[]Violation) (*taskspecv1.TaskSpec, error) {
	if len(data) > MaxDocumentBytes {
		return nil, decodeError("", CodeLimit, forms.MsgLimitBytes.Render(forms.Args{"n": strconv.Itoa(MaxDocumentBytes)}))
	}
	spec := &taskspecv1.TaskSpec{}
	if err := proto.Unmarshal(data, spec); err != nil {
		return nil, decodeError("", CodeBinarySyntax, forms.MsgBinarySyntaxReason.Render(forms.Args{
			"reason": wireProblem(data, spec.ProtoReflect().Descriptor())}))
	}
	if err := unknownFields(spec.ProtoReflect(), "", problems); err != nil {
		return nil, err
	}
	return spec, nil
}

// decodeError is a *DecodeError holding one problem of a binary protobuf
// document (or of one too large to read, or not UTF-8): msg at path, with
// its catalogue code.
func decodeError(path string, code Code, msg string) *DecodeError {
	return oneProblem(Violation{FieldPath: path, Message: msg, Code: code})
}

// wireTypes names the wire types in messages.
var wireTypes = map[protowire.Type]string{
	protowire.VarintType:     forms.WordWireVarint.Render(nil),
	protowire.Fixed64Type:    forms.WordWireFixed64.Render(nil),
	protowire.BytesType:      forms.WordWireBytes.Render(nil),
	protowire.StartGroupType: forms.WordWireGroupStart.Render(nil),
	protowire.EndGroupType:   forms.WordWireGroupEnd.Render(nil),
	protowire.Fixed32Type:    forms.WordWireFixed32.Render(nil),
}

func expectedWire(fd protoreflect.FieldDescriptor) string {
	var expected string
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind, protoreflect.GroupKind:
		return wireTypes[protowire.BytesType]
	case protoreflect.DoubleKind, protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
		expected = wireTypes[protowire.Fixed64Type]
	case protoreflect.FloatKind, protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
		expected = wireTypes[protowire.Fixed32Type]
	default:
		expected = wireTypes[protowire.VarintType]
	}
	if fd.IsList() {
		return forms.WordOrPacked.Render(forms.Args{"want": expected})
	}
	return expected
}

// unknownFields refuses the unknown fields of m, depth first (m's own
// first, then its fields in number order), as the Python library does: a
// known number is a field sent with the wrong wire type, which protobuf
// sets aside as unknown. With problems nil the first is the error; else
// each is added to *problems.
func unknownFields(m protoreflect.Message, path string, problems *[]Violation) error {
	md := m.Descriptor()
	for raw := m.GetUnknown(); len(raw) > 0; {
		num, typ, n := protowire.ConsumeTag(raw)
		if n < 0 {
			break
		}
		var bad *DecodeError
		if fd := md.Fields().ByNumber(num); fd != nil {
			fieldPath := join(path, string(fd.Name()))
			name, ok := wireTypes[typ]
			if !ok {
				name = strconv.Itoa(int(typ))
			}
			bad = decodeError(fieldPath, CodeWrongType, forms.MsgWrongTypeWireType.Render(forms.Args{
				"path": fieldPath, "n": strconv.Itoa(int(num)), "got": name, "want": expectedWire(fd)}))
		} else {
			form, args := forms.MsgUnknownKeyWireNumber, forms.Args{"n": strconv.Itoa(int(num)), "wire": string(md.FullName())}
			if path != "" {
				form, args["path"] = forms.MsgUnknownKeyWireNumberIn, path
			}
			bad = decodeError(path, CodeUnknownKey, form.Render(args))
		}
		if problems == nil {
			return bad
		}
		*problems = append(*problems, bad.Violations...)
		size := protowire.ConsumeFieldValue(num, typ, raw[n:])
		if size < 0 {
			break
		}
		raw = raw[n+size:]
	}
	var err error
	for _, fd := range fieldsByNumber(md) {
		if err != nil {
			break
		}
		if fd.Message() == nil || !m.Has(fd) {
			continue
		}
		sub := join(path, string(fd.Name()))
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() == nil {
				continue
			}
			var keys []protoreflect.MapKey
			m.Get(fd).Map().Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
				keys = append(keys, k)
				return true
			})
			sort.Slice(keys, func(i, j int) bool { return mapKeyLess(keys[i], keys[j]) })
			for _, k := range keys {
				if err = unknownFields(m.Get(fd).Map().Get(k).Message(), sub+"["+strconv.Quote(k.String())+"]", problems); err != nil {
					break
				}
			}
		case fd.IsList():
			list := m.Get(fd).List()
			for j := 0; j < list.Len() && err == nil; j++ {
				err = unknownFields(list.Get(j).Message(), fmt.Sprintf("%s[%d]", sub, j), problems)
			}
		default:
			err = unknownFields(m.Get(fd).Message(), sub, problems)
		}
	}
	return err
}

// Parse decodes data in format f and validates it: ParseYAML, ParseJSON or
// ParseBinpb. An unknown format is an error.
func Parse(data []byte, f Format) (*taskspecv1.TaskSpec, error) {
	switch f {
	case YAML:
		return ParseYAML(data)
	case JSON:
		return ParseJSON(data)
	case Binpb:
		return ParseBinpb(data)
	}
	_, err := ParseFormat(string(f))
	return nil, err
}

// MarshalJSON writes spec as proto3 JSON, in one canonical form that the
// Python library writes too: fields in declaration order and map keys in
// Go's key order, lowerCamelCase names, int64 values as strings, enum
// values by their proto names (an undefined number as a number), fields at
// their default left out (an unset kg_query is absent, an empty one {}),
// two-space indentation, "key": value, non-ASCII characters as they are,
// and a final newline. The bytes depend only on the spec, unlike
// protojson's, whose whitespace varies on purpose.
//
// Like MarshalYAML it does not validate, so any spec can be inspected, and
// it writes what it is given whatever its size; Convert refuses output a
// reader would refuse. A string that is not UTF-8 is refused, naming the
// field.
func MarshalJSON(spec *taskspecv1.TaskSpec) ([]byte, error) {
	if err := marshalable(spec); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	writeJSONMessage(&b, spec.ProtoReflect(), 0)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// MarshalBinpb writes spec as binary protobuf, deterministically, with
// proto.MarshalOptions{Deterministic: true}: fields in number order,
// unknown fields last, map entries sorted by key, the bytes the Python
// library writes too. It does not validate; a string that
// is not UTF-8 is refused, naming the field.
func MarshalBinpb(spec *taskspecv1.TaskSpec) ([]byte, error) {
	if err := marshalable(spec); err != nil {
		return nil, err
	}
	out, err := proto.MarshalOptions{Deterministic: true}.Marshal(spec)
	if err != nil {
		return nil, fmt.Errorf("%smarshal task spec: %w", errPrefix, err)
	}
	return out, nil
}

func marshalable(spec *taskspecv1.TaskSpec) error {
	if spec == nil {
		return errors.New(errPrefix + "marshal nil task spec")
	}
	if path := invalidUTF8(spec); path != "" {
		return fmt.Errorf("%smarshal task spec: %s: string is not valid UTF-8", errPrefix, path)
	}
	return nil
}

// Marshal writes spec in format f: MarshalYAML, MarshalJSON or
// MarshalBinpb. Like them it does not validate. An unknown format is an
// error.
func Marshal(spec *taskspecv1.TaskSpec, f Format) ([]byte, error) {
	switch f {
	case YAML:
		return MarshalYAML(spec)
	case JSON:
		return MarshalJSON(spec)
	case Binpb:
		return MarshalBinpb(spec)
	}
	_, err := ParseFormat(string(f))
	return nil, err
}

// Convert decodes and validates data in format from, then writes it in
// format to: the same as Marshal(Parse(data, from), to), except that
// output a reader would refuse is refused with a [*WriteError]. A spec within the limits in
// one format can be over them in another: JSON of 200,000 signals is YAML
// of 400,000 nodes (over MaxNodes), and a prompt of 9 MiB of '"' is 18
// MiB of JSON (over MaxDocumentBytes; "taskspec: cannot write: the JSON would
// be 18,874,649 bytes, more than the 16,777,216 a reader accepts (prompt
// takes 18,874,384 of them)"). Parse and Marshal write anything.
func Convert(data []byte, from, to Format) ([]byte, error) {
	spec, err := Parse(data, from)
	if err != nil {
		return nil, err
	}
	if _, err := ParseFormat(string(to)); err != nil {
		return nil, err
	}
	if to == YAML {
		m, err := toMirror(spec)
		if err != nil {
			return nil, err
		}
		if err := checkWritable(m); err != nil {
			return nil, err
		}
	}
	out, err := Marshal(spec, to)
	if err != nil {
		return nil, err
	}
	if err := checkSizeIn(spec, out, to); err != nil {
		return nil, err
	}
	return out, nil
}

var formatNames = map[Format]string{YAML: "YAML", JSON: "JSON", Binpb: "binary protobuf"}

// checkSizeIn refuses out, spec written in format f, when it is over the
// size a reader accepts, naming the top-level field that adds the most
// bytes in that format, as the Python library's check_size does.
func checkSizeIn(spec *taskspecv1.TaskSpec, out []byte, f Format) error {
	if len(out) <= MaxDocumentBytes {
		return nil
	}
	empty, _ := Marshal(&taskspecv1.TaskSpec{}, f)
	field, part := "", 0
	m := spec.ProtoReflect()
	for _, fd := range fieldsByNumber(m.Descriptor()) {
		if !m.Has(fd) {
			continue
		}
		alone := &taskspecv1.TaskSpec{}
		alone.ProtoReflect().Set(fd, m.Get(fd))
		if b, err := Marshal(alone, f); err == nil && len(b)-len(empty) > part {
			field, part = string(fd.Name()), len(b)-len(empty)
		}
	}
	return &WriteError{FieldPath: field, Message: tooLargeToWrite(formatNames[f], len(out), field, part)}
}

// tooLargeToWrite is TS006's message for a document of size bytes in
// format, over the size a reader accepts, naming the top-level field that
// adds the most (part bytes) when there is one.
func tooLargeToWrite(format string, size int, field string, part int) string {
	args := forms.Args{"format": format, "n": commas(size), "limit": commas(MaxDocumentBytes)}
	reason := forms.ReasonLimitTooLarge
	if field != "" {
		reason, args["field"], args["part"] = forms.ReasonLimitTooLargeField, field, commas(part)
	}
	return forms.MsgLimitCannotWrite.Render(forms.Args{"reason": reason.Render(args)})
}

// fieldsByNumber is md's fields in field-number order, the order the
// Python library's ListFields walks.
func fieldsByNumber(md protoreflect.MessageDescriptor) []protoreflect.FieldDescriptor {
	fields := make([]protoreflect.FieldDescriptor, md.Fields().Len())
	for i := range fields {
		fields[i] = md.Fields().Get(i)
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].Number() < fields[j].Number() })
	return fields
}

// byteOrderMark is U+FEFF in UTF-8.
const byteOrderMark = "\xef\xbb\xbf"

// invalidUTF8At returns the offset of the first byte of data that does not
// start a valid UTF-8 sequence.
func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(data)
}
