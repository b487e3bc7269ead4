package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// request is what protoc sends for proto/taskspec/v1/taskspec.proto, built
// from the compiled stubs' descriptors; edit may change taskspec.proto's.
func request(t *testing.T, edit func(*descriptorpb.FileDescriptorProto)) *pluginpb.CodeGeneratorRequest {
	t.Helper()
	spec := protodesc.ToFileDescriptorProto(taskspecv1.File_taskspec_v1_taskspec_proto)
	if edit != nil {
		edit(spec)
	}
	var files []*descriptorpb.FileDescriptorProto
	for _, fd := range []protoreflect.FileDescriptor{
		descriptorpb.File_google_protobuf_descriptor_proto,
		taskspecv1.File_taskspec_v1_problems_proto,
		taskspecv1.File_taskspec_v1_options_proto,
	} {
		files = append(files, protodesc.ToFileDescriptorProto(fd))
	}
	return &pluginpb.CodeGeneratorRequest{
		FileToGenerate: []string{spec.GetName()},
		ProtoFile:      append(files, spec),
	}
}

func run(t *testing.T, req *pluginpb.CodeGeneratorRequest) (map[string]string, error) {
	t.Helper()
	gen, err := protogen.Options{}.New(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := generate(gen); err != nil {
		return nil, err
	}
	resp := gen.Response()
	if resp.Error != nil {
		t.Fatal(resp.GetError())
	}
	out := map[string]string{}
	for _, f := range resp.GetFile() {
		out[f.GetName()] = f.GetContent()
	}
	return out, nil
}

// The committed files are what the plugin writes for the committed proto
// (make checkgenerate checks the same through buf).
func TestOutputIsTheCommittedCode(t *testing.T) {
	out, err := run(t, request(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 7 {
		t.Fatalf("wrote %d files, want 7", len(out))
	}
	for name, content := range out {
		want, err := os.ReadFile(filepath.Join("..", "..", "go", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if content != string(want) {
			t.Errorf("%s differs from the committed file: run make generate", name)
		}
		if !strings.HasPrefix(content, header+"\n") {
			t.Errorf("%s does not start with the generated-code header", name)
		}
	}
}

func field(spec *descriptorpb.FileDescriptorProto, message, name string) *descriptorpb.FieldDescriptorProto {
	for _, m := range spec.GetMessageType() {
		if m.GetName() != message {
			continue
		}
		for _, f := range m.GetField() {
			if f.GetName() == name {
				return f
			}
		}
	}
	panic(message + "." + name)
}

// A field without its decision, or with one that does not fit, fails with
// one message that names the field and what to decide.
func TestAFieldWithoutADecisionFailsWithOneMessage(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*descriptorpb.FileDescriptorProto)
		want string
	}{
		{"no option", func(s *descriptorpb.FileDescriptorProto) {
			field(s, "KGQuery", "intent").Options = nil
		}, "taskspec/v1/taskspec.proto: taskspec.v1.KGQuery.intent: no (taskspec.v1.field) option: decide its presence"},
		{"no presence", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "TaskSpec", "prompt").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Presence = taskspecv1.Presence_PRESENCE_UNSPECIFIED
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, "taskspec.v1.TaskSpec.prompt: no (taskspec.v1.field).presence"},
		{"two problems", func(s *descriptorpb.FileDescriptorProto) {
			field(s, "KGQuery", "intent").Options = nil
			field(s, "KGQuery", "seed_symbol").Options = nil
		}, "(and 1 more)"},
		{"shown under hidden", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "Verification", "build_cmd").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Visibility = taskspecv1.Visibility_VISIBILITY_SHOWN
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, "taskspec.v1.Verification.build_cmd: VISIBILITY_SHOWN under a hidden field"},
		{"verbs", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "TaskSpec", "task_id").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Rules.GetString_().NotBlank.Message = "task_id %d is required"
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, `taskspec.v1.TaskSpec.task_id: message verbs "d" do not fit StringRules.not_blank`},
		{"a demand has no bound", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "TaskSpec", "task_id").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Rules.GetString_().NotBlank.Message = "task_id %[2]d"
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, `taskspec.v1.TaskSpec.task_id: message verbs "d" do not fit StringRules.not_blank`},
		{"item verbs", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "Verification", "test_cmd").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Rules.GetRepeated().Items = &taskspecv1.StringRules{MaxLen: &taskspecv1.Bound{Value: 3, Message: "item %d"}}
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, `taskspec.v1.Verification.test_cmd: message verbs "d" do not fit StringRules.max_len`},
		{"no message", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "Verification", "timeout_seconds").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Rules.GetInt64().AtMost = &taskspecv1.Bound{Value: 3}
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, `taskspec.v1.Verification.timeout_seconds: its Int64Rules.at_most constraint has no message`},
		{"v1 rule", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "TaskSpec", "prompt").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Rules = nil
			//lint:ignore SA1019 the refusal of v1's deprecated rule is what is tested
			c.Rule = &taskspecv1.Rule{Check: taskspecv1.Check_CHECK_NOT_BLANK, Message: "prompt is required"}
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, "taskspec.v1.TaskSpec.prompt: rule is v1's first form of a rule: write it under rules (see CONTRIBUTING.md)"},
		{"rules of another type", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "TaskSpec", "prompt").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Rules = &taskspecv1.FieldRules{Type: &taskspecv1.FieldRules_Int64{Int64: &taskspecv1.Int64Rules{
				AtLeast: &taskspecv1.Bound{Value: 1, Message: "short"},
			}}}
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, "taskspec.v1.TaskSpec.prompt: rules.int64 does not apply to a field of this type"},
		{"list rules on a list of messages", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "TaskSpec", "solution_artifacts").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Rules = &taskspecv1.FieldRules{Type: &taskspecv1.FieldRules_Repeated{Repeated: &taskspecv1.RepeatedRules{
				NotEmpty: &taskspecv1.Demand{Message: "required"},
			}}}
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, "taskspec.v1.TaskSpec.solution_artifacts: rules.repeated does not apply to a field of this type"},
		{"oneof", func(s *descriptorpb.FileDescriptorProto) {
			for _, m := range s.GetMessageType() {
				if m.GetName() == "KGQuery" {
					m.OneofDecl = append(m.OneofDecl, &descriptorpb.OneofDescriptorProto{Name: proto.String("query")})
				}
			}
			field(s, "KGQuery", "intent").OneofIndex = proto.Int32(0)
		}, "taskspec.v1.KGQuery.intent: a field in a oneof, or proto3 optional, is not supported"},
		{"proto3 optional", func(s *descriptorpb.FileDescriptorProto) {
			for _, m := range s.GetMessageType() {
				if m.GetName() == "KGQuery" {
					m.OneofDecl = append(m.OneofDecl, &descriptorpb.OneofDescriptorProto{Name: proto.String("_intent")})
				}
			}
			f := field(s, "KGQuery", "intent")
			f.OneofIndex, f.Proto3Optional = proto.Int32(0), proto.Bool(true)
		}, "taskspec.v1.KGQuery.intent: a field in a oneof, or proto3 optional, is not supported"},
		{"omit empty on a message", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "GeneratedFrom", "kg_query").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Presence = taskspecv1.Presence_PRESENCE_OMIT_EMPTY
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, "taskspec.v1.GeneratedFrom.kg_query: PRESENCE_OMIT_EMPTY on a message field: the Go package would hold it as a value," +
			" always set, where Python leaves it unset; write PRESENCE_OMIT_UNSET"},
		{"omit unset on a string", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "KGQuery", "intent").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Presence = taskspecv1.Presence_PRESENCE_OMIT_UNSET
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, "taskspec.v1.KGQuery.intent: PRESENCE_OMIT_UNSET is for singular message fields only"},
		{"rules without a constraint", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "KGQuery", "intent").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Rules = &taskspecv1.FieldRules{Type: &taskspecv1.FieldRules_String_{String_: &taskspecv1.StringRules{}}}
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, "taskspec.v1.KGQuery.intent: rules.string sets no constraint"},
		{"ignore without rules", func(s *descriptorpb.FileDescriptorProto) {
			o := field(s, "KGQuery", "intent").GetOptions()
			c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
			c.Rules = &taskspecv1.FieldRules{Ignore: taskspecv1.Ignore_IGNORE_IF_ZERO_VALUE}
			proto.SetExtension(o, taskspecv1.E_Field, c)
		}, "taskspec.v1.KGQuery.intent: its rules set no rules message"},
		{"no limits", func(s *descriptorpb.FileDescriptorProto) {
			for _, m := range s.GetMessageType() {
				if m.GetName() == "TaskSpec" {
					m.Options = nil
				}
			}
		}, "taskspec.v1.TaskSpec: (taskspec.v1.limits).max_depth must be set and positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, request(t, tc.edit))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %v, want one line with %q", err, tc.want)
			}
		})
	}
}

// An option attribute or value the plugin does not know stops generation
// with one message naming it: nothing the proto declares is ignored.
func TestAnUnknownOptionAttributeOrValueFailsNamingIt(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*descriptorpb.FileDescriptorProto)
		want string
	}{
		{"attribute", func(o *descriptorpb.FileDescriptorProto) {
			for _, m := range o.GetMessageType() {
				if m.GetName() == "FieldContract" {
					m.Field = append(m.Field, &descriptorpb.FieldDescriptorProto{
						Name: proto.String("more_rules"), Number: proto.Int32(99), JsonName: proto.String("moreRules"),
						Label:    descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum(),
						Type:     descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(),
						TypeName: proto.String(".taskspec.v1.Rule"),
					})
				}
			}
		}, "taskspec.v1.FieldContract.more_rules is an option attribute protoc-gen-taskspec-go does not know"},
		{"rules attribute", func(o *descriptorpb.FileDescriptorProto) {
			for _, m := range o.GetMessageType() {
				if m.GetName() == "StringRules" {
					m.Field = append(m.Field, &descriptorpb.FieldDescriptorProto{
						Name: proto.String("pattern"), Number: proto.Int32(99), JsonName: proto.String("pattern"),
						Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
						Type:  descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum(),
					})
				}
			}
		}, "taskspec.v1.StringRules.pattern is an option attribute protoc-gen-taskspec-go does not know"},
		{"undeclared kind", func(o *descriptorpb.FileDescriptorProto) {
			for _, m := range o.GetMessageType() {
				if m.GetName() == "Int64Rules" {
					m.Field = append(m.Field, &descriptorpb.FieldDescriptorProto{
						Name: proto.String("example_kind"), Number: proto.Int32(99), JsonName: proto.String("exampleKind"),
						Label:    descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
						Type:     descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(),
						TypeName: proto.String(".taskspec.v1.Bound"),
					})
				}
			}
		}, "taskspec.v1.Int64Rules.example_kind has no (taskspec.v1.constraint): declare its code"},
		{"kind with a code taken", func(o *descriptorpb.FileDescriptorProto) {
			addKind(o, "example_kind", &taskspecv1.ConstraintKind{Code: 109, Problem: &taskspecv1.ProblemKind{Title: "t"}})
		}, "taskspec.v1.Int64Rules.example_kind: code 109 is taskspec.v1.StringRules.max_len's already"},
		{"kind without its entry", func(o *descriptorpb.FileDescriptorProto) {
			addKind(o, "example_kind", &taskspecv1.ConstraintKind{Code: 199})
		}, "taskspec.v1.Int64Rules.example_kind: code 199 is no ProblemCode value: give its catalogue entry in problem"},
		{"kind with two entries", func(o *descriptorpb.FileDescriptorProto) {
			addKind(o, "example_kind", &taskspecv1.ConstraintKind{Code: 107, Problem: &taskspecv1.ProblemKind{Title: "t"}})
		}, "taskspec.v1.Int64Rules.example_kind: code 107 is a ProblemCode value, which has its catalogue entry: leave out problem"},
		{"kind outside the 1xx range", func(o *descriptorpb.FileDescriptorProto) {
			addKind(o, "example_kind", &taskspecv1.ConstraintKind{Code: 1})
		}, "taskspec.v1.Int64Rules.example_kind: (taskspec.v1.constraint).code must be set, in the 1xx range"},
		{"value", func(o *descriptorpb.FileDescriptorProto) {
			for _, e := range o.GetEnumType() {
				if e.GetName() == "Check" {
					e.Value = append(e.Value, &descriptorpb.EnumValueDescriptorProto{
						Name: proto.String("CHECK_AT_MOST"), Number: proto.Int32(99),
					})
				}
			}
		}, "taskspec.v1.Check.CHECK_AT_MOST is an option value protoc-gen-taskspec-go does not know"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := request(t, nil)
			for _, f := range req.GetProtoFile() {
				if f.GetName() == optionsFile {
					tc.edit(f)
				}
			}
			_, err := run(t, req)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %v, want one line with %q", err, tc.want)
			}
		})
	}
}

// addKind declares a new kind of constraint, name, in Int64Rules.
func addKind(o *descriptorpb.FileDescriptorProto, name string, decl *taskspecv1.ConstraintKind) {
	for _, m := range o.GetMessageType() {
		if m.GetName() == "Int64Rules" {
			opts := &descriptorpb.FieldOptions{}
			proto.SetExtension(opts, taskspecv1.E_Constraint, decl)
			m.Field = append(m.Field, &descriptorpb.FieldDescriptorProto{
				Name: proto.String(name), Number: proto.Int32(99), JsonName: proto.String(name),
				Label:    descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
				Type:     descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(),
				TypeName: proto.String(".taskspec.v1.Bound"),
				Options:  opts,
			})
		}
	}
}

// A kind of constraint declared in options.proto needs no change here: the
// plugin lists it with the Go implementation named after it, which
// go/constraints.go must then hold.
func TestANewKindNeedsNoPluginChange(t *testing.T) {
	req := request(t, nil)
	for _, f := range req.GetProtoFile() {
		if f.GetName() == optionsFile {
			addKind(f, "example_kind", &taskspecv1.ConstraintKind{Code: 199, Problem: &taskspecv1.ProblemKind{
				Title: "t", MessageForms: []*taskspecv1.Form{{Id: "rule", Text: "{rule}"}}}})
		}
	}
	out, err := run(t, req)
	if err != nil {
		t.Fatal(err)
	}
	want := `"taskspec.v1.Int64Rules.example_kind": {name: "taskspec.v1.Int64Rules.example_kind", code: "TS199", keeps: int64RulesExampleKind},`
	if !strings.Contains(strings.Join(strings.Fields(out[goFile]), " "), want) {
		t.Errorf("%s lacks %s", goFile, want)
	}
}

// The rules table lists one rule per constraint set, in the declaration
// order of the rules message whatever order the option writes them in,
// then the rules of each item.
func TestRulesFollowTheDeclarationOrder(t *testing.T) {
	out, err := run(t, request(t, func(s *descriptorpb.FileDescriptorProto) {
		o := field(s, "Verification", "test_cmd").GetOptions()
		c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
		r := c.Rules.GetRepeated()
		r.MaxItems = &taskspecv1.Bound{Value: 100, Message: "at most %[2]d items, got %[1]d"}
		r.Items = &taskspecv1.StringRules{
			MaxLen:   &taskspecv1.Bound{Value: 4096, Message: "argument %q is longer than %d"},
			NotBlank: &taskspecv1.Demand{Message: "blank argument %q"},
		}
		proto.SetExtension(o, taskspecv1.E_Field, c)
	}))
	if err != nil {
		t.Fatal(err)
	}
	src := out[goFile]
	// The rules of test_cmd, whatever the rules of the other fields are.
	var got []string
	path := ""
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if p, ok := strings.CutPrefix(line, "path:"); ok {
			path = strings.Trim(strings.TrimSpace(p), `",`)
		}
		if k, ok := strings.CutPrefix(line, "kind:"); ok && path == "verification.test_cmd" {
			got = append(got, strings.TrimSuffix(strings.TrimSpace(k), ","))
		}
	}
	want := []string{
		`constraints["taskspec.v1.RepeatedRules.not_empty"]`, `constraints["taskspec.v1.RepeatedRules.max_items"]`,
		`constraints["taskspec.v1.StringRules.not_blank"]`, `constraints["taskspec.v1.StringRules.max_len"]`,
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("rules\n got %v\nwant %v", got, want)
	}
	if !strings.Contains(src, "item:    true,") || !strings.Contains(src, `code: "TS112",`) {
		t.Errorf("the item rules or the max_items kind's code are missing:\n%s", src)
	}
}

// A message may name its arguments by index, as Go's fmt does: the bound
// can come before the value, and each can be shown more than once.
func TestMessageArgumentIndexes(t *testing.T) {
	bound := int64(86400)
	for _, tc := range []struct {
		message string
		kind    valueKind
		bound   *int64
		args    int // 0 with ok false: refused
		ok      bool
	}{
		{"%d items", kindStringList, nil, 1, true},
		{"%q items", kindStringList, nil, 0, false},
		{"invalid %q", kindEnum, nil, 1, true},
		{"at most %[2]d, got %[1]d", kindInt, &bound, 2, true},
		{"got %d, want %d", kindInt, &bound, 2, true},
		{"limit %[2]d", kindInt, &bound, 2, true},
		{"%[1]d, %[1]d again", kindInt, &bound, 1, true},
		{"invalid %q", kindString, nil, 1, true},
		{"%[2]d", kindInt, nil, 0, false},
		{"%[3]d", kindInt, &bound, 0, false},
		{"%[2]q", kindInt, &bound, 0, false},
		{"%[x]d", kindInt, &bound, 0, false},
		{"%[2]", kindInt, &bound, 0, false},
		{"%d %d %d", kindInt, &bound, 0, false},
	} {
		k := &constraintKind{full: "taskspec.v1.Int64Rules.at_least", value: tc.kind, bound: tc.bound != nil}
		args, err := messageArgs(&setConstraint{Kind: k, Bound: tc.bound, Message: tc.message})
		if (err == nil) != tc.ok || args != tc.args {
			t.Errorf("messageArgs(%q) = %d, %v; want %d, ok %v", tc.message, args, err, tc.args, tc.ok)
		}
	}
}

// A code whose Go name is another's already stops generation with a
// message naming both, rather than writing a file that does not compile.
func TestTwoCodesWithOneNameFail(t *testing.T) {
	req := request(t, nil)
	for _, f := range req.GetProtoFile() {
		if f.GetName() != optionsFile {
			continue
		}
		for _, m := range f.GetMessageType() {
			for _, fd := range m.GetField() {
				if m.GetName() == "StringRules" && fd.GetName() == "max_len" {
					fd.Name, fd.JsonName = proto.String("unknown_key"), proto.String("unknownKey")
				}
			}
		}
	}
	_, err := run(t, req)
	if err == nil || !strings.Contains(err.Error(), "are both CodeUnknownKey: rename one") {
		t.Fatalf("err = %v", err)
	}
}

// A field's rules with FieldRules.ignore IGNORE_IF_ZERO_VALUE become rules
// that skip the zero value; the rules of its items stay as they are.
func TestIgnoreIfZeroValueMarksTheFieldsOwnRules(t *testing.T) {
	before, err := run(t, request(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	out, err := run(t, request(t, func(s *descriptorpb.FileDescriptorProto) {
		o := field(s, "Verification", "test_cmd").GetOptions()
		c := proto.GetExtension(o, taskspecv1.E_Field).(*taskspecv1.FieldContract)
		c.Rules.Ignore = taskspecv1.Ignore_IGNORE_IF_ZERO_VALUE
		c.Rules.GetRepeated().Items = &taskspecv1.StringRules{MaxLen: &taskspecv1.Bound{Value: 3, Message: "item %q"}}
		proto.SetExtension(o, taskspecv1.E_Field, c)
	}))
	if err != nil {
		t.Fatal(err)
	}
	// The rules of verification.test_cmd, up to the next field's.
	got := out[goFile]
	start := strings.Index(got, `"verification.test_cmd",`)
	if start < 0 {
		t.Fatalf("no rule of verification.test_cmd in %s", goFile)
	}
	block := got[start:]
	if end := strings.Index(block, `"verification.timeout_seconds",`); end >= 0 {
		block = block[:end]
	}
	if n := strings.Count(block, "ignoreZero:"); n != 1 {
		t.Errorf("%d rules of verification.test_cmd skip the zero value, want its one own rule", n)
	}
	if n := strings.Count(block, "item:"); n != 1 {
		t.Errorf("%d item rules of verification.test_cmd, want 1", n)
	}
	added := strings.Count(got, "ignoreZero:") - strings.Count(before[goFile], "ignoreZero:")
	if added != 1 {
		t.Errorf("%d more rules skip the zero value, want 1", added)
	}
}

// A row of the parser-problem table that names a form its code does not
// have stops generation, naming the form.
func TestAParserRowNamingNoFormFails(t *testing.T) {
	req := request(t, nil)
	for _, f := range req.GetProtoFile() {
		if f.GetName() != problemsFile {
			continue
		}
		for _, e := range f.GetEnumType() {
			if e.GetName() != "ProblemCode" {
				continue
			}
			tables := proto.Clone(proto.GetExtension(e.GetOptions(), taskspecv1.E_ProblemTables).(*taskspecv1.ProblemTables)).(*taskspecv1.ProblemTables)
			tables.ParserProblems = append(tables.ParserProblems, &taskspecv1.ParserProblem{
				Parser: "yaml.v3", Phrases: []string{"x"}, Code: taskspecv1.ProblemCode_PROBLEM_CODE_SYNTAX, Form: "no_such_form"})
			e.Options = proto.Clone(e.GetOptions()).(*descriptorpb.EnumOptions)
			proto.SetExtension(e.Options, taskspecv1.E_ProblemTables, tables)
		}
	}
	gen, err := protogen.Options{}.New(req)
	if err != nil {
		t.Fatal(err)
	}
	err = generate(gen)
	if err == nil || !strings.Contains(err.Error(), `"no_such_form"`) || !strings.Contains(err.Error(), "TS005") {
		t.Fatalf("generate = %v, want an error naming TS005's form \"no_such_form\"", err)
	}
}

// TestAnEntryWithoutMessageFormsFails: an entry written with the fields the
// forms replaced (messages, hints), or with no message form, stops
// generation with the code and the field to use, not a catalogue whose
// words are missing.
func TestAnEntryWithoutMessageFormsFails(t *testing.T) {
	for name, edit := range map[string]func(k *taskspecv1.ProblemKind){
		"deprecated messages": func(k *taskspecv1.ProblemKind) {
			//lint:ignore SA1019 the entry is written with the field the forms replaced
			k.Messages = []string{k.GetMessageForms()[0].GetText()}
			k.MessageForms = nil
		},
		"deprecated hints": func(k *taskspecv1.ProblemKind) {
			//lint:ignore SA1019 the entry is written with the field the forms replaced
			k.Hints = []string{"x"}
		},
		"no message form": func(k *taskspecv1.ProblemKind) { k.MessageForms = nil },
	} {
		req := request(t, nil)
		for _, f := range req.GetProtoFile() {
			if f.GetName() != problemsFile {
				continue
			}
			for _, e := range f.GetEnumType() {
				if e.GetName() != "ProblemCode" {
					continue
				}
				for _, v := range e.GetValue() {
					if v.GetNumber() != int32(taskspecv1.ProblemCode_PROBLEM_CODE_UNKNOWN_KEY) {
						continue
					}
					kind := proto.Clone(proto.GetExtension(v.GetOptions(), taskspecv1.E_Problem).(*taskspecv1.ProblemKind)).(*taskspecv1.ProblemKind)
					edit(kind)
					v.Options = proto.Clone(v.GetOptions()).(*descriptorpb.EnumValueOptions)
					proto.SetExtension(v.Options, taskspecv1.E_Problem, kind)
				}
			}
		}
		gen, err := protogen.Options{}.New(req)
		if err != nil {
			t.Fatal(err)
		}
		err = generate(gen)
		if err == nil || !strings.Contains(err.Error(), "TS001") || !strings.Contains(err.Error(), "message_forms") &&
			!strings.Contains(err.Error(), "hint_forms") {
			t.Errorf("%s: generate = %v, want an error naming TS001 and the forms to use", name, err)
		}
	}
}
