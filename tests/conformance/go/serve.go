package main

// The serve protocol. Each request is one JSON object on one line of stdin;
// each produces exactly one JSON object on one line of stdout, in order,
// flushed at once, so a client can keep one process and pipeline requests.
// Blank lines are skipped and produce no response. Byte strings travel as
// standard padded base64 in keys ending in _b64. A request may carry an
// "id" of any JSON type; it is echoed back unchanged.
//
//	{"op":"parse","yaml_b64":B}       eval.ParseTaskSpec
//	  -> {"ok":true,"spec":SPEC,"yaml_b64":B}   (B = MarshalYAML of the result)
//	{"op":"decode","yaml_b64":B}      strict decode, no Validate
//	  -> {"ok":true,"spec":SPEC,"yaml_b64":B,"validate_error":"" or message}
//	{"op":"marshal","spec":SPEC}
//	  -> {"ok":true,"yaml_b64":B,"roundtrip_ok":bool,"roundtrip_error":"" or why}
//	{"op":"wire_encode","spec":SPEC}
//	  -> {"ok":true,"binpb_b64":B,"json":"<protojson>"}
//	     (binary is deterministic, map entries sorted by key; protojson
//	     output is deliberately not byte-stable, so compare it parsed)
//	{"op":"wire_decode","binpb_b64":B} or {"op":"wire_decode","json":"..."}
//	  -> {"ok":true,"spec":SPEC,"yaml_b64":B}
//	{"op":"signal_keys","spec":SPEC}  -> {"ok":true,"keys":[...]}
//	{"op":"validate","spec":SPEC}     -> {"ok":true}
//	{"op":"styles","texts":[S,...]}   the scalar style yaml.v3 writes each string in
//	  -> {"ok":true,"styles":[R,...]}, four records per string, one per position:
//	     R = {"text":S,"context":C,"style":T,"simple_key":bool (keys only),"yaml":Y}
//	     C is "value" (a block mapping value), "key" (a block mapping key),
//	     "flow" (a flow sequence item) or "flow_key" (a flow mapping key); T is
//	     "plain", "single-quoted", "double-quoted" or "literal"; simple_key is
//	     false where yaml.v3 wrote an explicit "? " key; Y is the whole output.
//
// The lib_ ops drive the taskspec Go library (module go/) on the generated
// message, which travels as deterministic binary protobuf:
//
//	{"op":"lib_parse","yaml_b64":B}     taskspec.ParseYAML
//	  -> {"ok":true,"binpb_b64":M,"yaml_b64":B}  (B = taskspec.MarshalYAML of M)
//	  or {"ok":false,"error":E,"error_kind":K,"violations":[V,...]}
//	     K is "validate" (violations set), "strict" (one violation: the
//	     StrictError's path, reason, line and column) or "decode" (one
//	     violation: the DecodeError's path, line, column and hint)
//	{"op":"lib_parse_file","path":P}    taskspec.ParseYAML of the file P, answering
//	  {"ok":true} or the error as lib_parse does: for timing, with no transport cost
//	{"op":"lib_marshal","binpb_b64":M}  taskspec.MarshalYAML -> {"ok":true,"yaml_b64":B}
//	{"op":"lib_save","binpb_b64":M,"path":P}  taskspec.Save (in the format the extension
//	  of P names) -> {"ok":true} or the
//	  error, with a WriteError's field path and message as the one violation
//	{"op":"lib_validate","binpb_b64":M} taskspec.Violations and Validate
//	  -> {"ok":true,"violations":[V,...],"validate_error":"" or message}
//	{"op":"lib_marshal_json","binpb_b64":M}   taskspec.MarshalJSON -> {"ok":true,"data_b64":B}
//	{"op":"lib_marshal_binpb","binpb_b64":M}  taskspec.MarshalBinpb -> {"ok":true,"data_b64":B}
//	{"op":"lib_convert","data_b64":B,"from":F,"to":T}  taskspec.Convert
//	  -> {"ok":true,"data_b64":B} or {"ok":false,"error":E,"error_kind":K,"violations":[V]}
//	     K is "validate", "decode" (a *DecodeError: its path, line, column
//	     and hint), "write" (a *WriteError: its path and message) or "other"
//	V = {"field_path":P,"message":M,"line":N,"column":N,"hint":H,"code":C}
//	    (hint and code left out when empty; a decode violation is the
//	    DecodeError's first problem)
//	{"op":"lib_check","yaml_b64":B,"format":F}  taskspec.CheckFormat (F "yaml",
//	  "json" or "binpb"; "yaml" when left out) -> {"ok":true,"problems":[P,...]}
//	  P = {"code","field_path","line","column","message","hint","severity"},
//	  and "fix" (F = {"text","start_line","start_column","end_line","end_column"})
//	  when the problem has one
//
// wire_encode builds the message with the library's enum spellings, and
// wire_decode writes it as YAML with taskspec.MarshalYAML and reads that
// back with the eval package, so both directions go through the library.
//
// Any failure is {"ok":false,"error":"..."}: the full Go error for a failed
// operation, "request: ..." for a malformed request or unknown op, and
// "panic: ..." for a recovered panic. When a YAML decode succeeded but the
// re-marshal failed, the error starts with "marshal: " and "spec" is still
// included.

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"

	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"github.com/taskspec/taskspec/tests/conformance/go/eval"
)

type request struct {
	ID       json.RawMessage `json:"id,omitempty"`
	Op       string          `json:"op"`
	YAMLB64  *string         `json:"yaml_b64,omitempty"`
	Spec     json.RawMessage `json:"spec,omitempty"`
	BinpbB64 *string         `json:"binpb_b64,omitempty"`
	JSON     *string         `json:"json,omitempty"`
	Texts    []string        `json:"texts,omitempty"`
	Path     *string         `json:"path,omitempty"`
	DataB64  *string         `json:"data_b64,omitempty"`
	From     string          `json:"from,omitempty"`
	To       string          `json:"to,omitempty"`
	Format   string          `json:"format,omitempty"`
}

type response struct {
	ID             json.RawMessage `json:"id,omitempty"`
	OK             bool            `json:"ok"`
	Error          string          `json:"error,omitempty"`
	Spec           any             `json:"spec,omitempty"`
	YAMLB64        *string         `json:"yaml_b64,omitempty"`
	ValidateError  *string         `json:"validate_error,omitempty"`
	RoundtripOK    *bool           `json:"roundtrip_ok,omitempty"`
	RoundtripError *string         `json:"roundtrip_error,omitempty"`
	BinpbB64       *string         `json:"binpb_b64,omitempty"`
	JSON           *string         `json:"json,omitempty"`
	Keys           *[]string       `json:"keys,omitempty"`
	ErrorKind      string          `json:"error_kind,omitempty"`
	Violations     *[]violation    `json:"violations,omitempty"`
	Styles         *[]styleRecord  `json:"styles,omitempty"`
	Problems       *[]problem      `json:"problems,omitempty"`
	DataB64        *string         `json:"data_b64,omitempty"`
}

type violation struct {
	FieldPath string        `json:"field_path"`
	Message   string        `json:"message"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	Hint      string        `json:"hint,omitempty"`
	Code      taskspec.Code `json:"code,omitempty"`
}

func violationsJSON(vs []taskspec.Violation) *[]violation {
	out := make([]violation, len(vs))
	for i, v := range vs {
		out[i] = violation{FieldPath: v.FieldPath, Message: v.Message, Line: v.Line, Column: v.Column, Hint: v.Hint, Code: v.Code}
	}
	return &out
}

// decodeViolation is a DecodeError's first problem, as lib_parse and
// lib_convert report it.
func decodeViolation(derr *taskspec.DecodeError) *[]violation {
	v := violation{FieldPath: derr.FieldPath, Line: derr.Line, Column: derr.Column, Hint: derr.Hint, Code: derr.Code}
	if len(derr.Violations) > 0 {
		v.Message = derr.Violations[0].Message
	}
	return &[]violation{v}
}

// problem is one problem as lib_check reports it: the contract's Problem
// model, every field present.
type problem struct {
	Code      taskspec.Code     `json:"code"`
	FieldPath string            `json:"field_path"`
	Line      int               `json:"line"`
	Column    int               `json:"column"`
	Message   string            `json:"message"`
	Hint      string            `json:"hint"`
	Severity  taskspec.Severity `json:"severity"`
	Fix       *taskspec.Fix     `json:"fix,omitempty"`
}

// requestError marks a malformed request; its message gets "request: ".
type requestError struct{ msg string }

func (e *requestError) Error() string { return "request: " + e.msg }

func badRequest(format string, args ...any) error {
	return &requestError{msg: fmt.Sprintf(format, args...)}
}

// wireMarshal is how wire_encode writes binary protobuf: deterministic, so
// map entries (difficulty_signals) come out sorted by key and the bytes are
// comparable across runs.
var wireMarshal = proto.MarshalOptions{Deterministic: true}

func serve(r io.Reader, w io.Writer) error {
	in := bufio.NewReaderSize(r, 1<<16)
	out := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			resp := handleLine(line)
			if werr := enc.Encode(resp); werr != nil {
				return werr
			}
			if werr := out.Flush(); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// handleLine never panics: a panic anywhere in one request becomes that
// request's error response.
func handleLine(line []byte) (resp *response) {
	var req request
	defer func() {
		if p := recover(); p != nil {
			resp = &response{ID: req.ID, Error: fmt.Sprintf("panic: %v", p)}
		}
	}()
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return &response{ID: req.ID, Error: "request: " + err.Error()}
	}
	if dec.More() {
		return &response{ID: req.ID, Error: "request: trailing data after request object"}
	}
	resp, err := handle(&req)
	if err != nil {
		if resp == nil {
			resp = &response{}
		}
		resp.OK = false
		resp.Error = err.Error()
	}
	resp.ID = req.ID
	return resp
}

// handle is the request handler; tests swap it to exercise panic recovery.
var handle = dispatch

func dispatch(req *request) (*response, error) {
	switch req.Op {
	case "parse":
		data, err := needBytes(req.Op, "yaml_b64", req.YAMLB64)
		if err != nil {
			return nil, err
		}
		spec, err := eval.ParseTaskSpec(data)
		if err != nil {
			return nil, err
		}
		return specResponse(spec)
	case "decode":
		data, err := needBytes(req.Op, "yaml_b64", req.YAMLB64)
		if err != nil {
			return nil, err
		}
		spec, err := decodeStrict(data)
		if err != nil {
			return nil, err
		}
		verr := ""
		if err := spec.Validate(); err != nil {
			verr = err.Error()
		}
		resp, err := specResponse(spec)
		if resp != nil {
			resp.ValidateError = &verr
		}
		return resp, err
	case "marshal":
		spec, err := needSpec(req)
		if err != nil {
			return nil, err
		}
		data, err := spec.MarshalYAML()
		if err != nil {
			return nil, err
		}
		ok, why := roundTrip(spec, data)
		return &response{OK: true, YAMLB64: b64(data), RoundtripOK: &ok, RoundtripError: &why}, nil
	case "wire_encode":
		if len(bytes.TrimSpace(req.Spec)) == 0 {
			return nil, badRequest("wire_encode: missing spec")
		}
		msg, err := protoFromSpecJSON(req.Spec)
		if err != nil {
			var verr *taskspec.ValidationError
			if errors.As(err, &verr) {
				return nil, err
			}
			return nil, badRequest("wire_encode: %v", err)
		}
		bin, err := wireMarshal.Marshal(msg)
		if err != nil {
			return nil, err
		}
		js, err := protojson.Marshal(msg)
		if err != nil {
			return nil, err
		}
		jss := string(js)
		return &response{OK: true, BinpbB64: b64(bin), JSON: &jss}, nil
	case "wire_decode":
		var msg taskspecv1.TaskSpec
		switch {
		case req.BinpbB64 != nil && req.JSON != nil:
			return nil, badRequest("wire_decode takes binpb_b64 or json, not both")
		case req.BinpbB64 != nil:
			bin, err := needBytes(req.Op, "binpb_b64", req.BinpbB64)
			if err != nil {
				return nil, err
			}
			if err := proto.Unmarshal(bin, &msg); err != nil {
				return nil, err
			}
		case req.JSON != nil:
			if err := protojson.Unmarshal([]byte(*req.JSON), &msg); err != nil {
				return nil, err
			}
		default:
			return nil, badRequest("wire_decode needs binpb_b64 or json")
		}
		data, err := taskspec.MarshalYAML(&msg)
		if err != nil {
			return nil, err
		}
		spec, err := decodeStrict(data)
		if err != nil {
			return nil, fmt.Errorf("the eval package cannot read taskspec.MarshalYAML's bytes: %w", err)
		}
		return specResponse(spec)
	case "lib_parse", "lib_parse_file":
		var data []byte
		var err error
		if req.Op == "lib_parse_file" {
			if req.Path == nil {
				return nil, badRequest("lib_parse_file needs path")
			}
			data, err = os.ReadFile(*req.Path)
		} else {
			data, err = needBytes(req.Op, "yaml_b64", req.YAMLB64)
		}
		if err != nil {
			return nil, err
		}
		msg, err := taskspec.ParseYAML(data)
		if err != nil {
			resp := &response{ErrorKind: "decode"}
			var verr *taskspec.ValidationError
			var serr *taskspec.StrictError
			var derr *taskspec.DecodeError
			// A *DecodeError whose problems include a broken rule is found
			// as a *ValidationError too: the decode problem decides.
			isDecode := errors.As(err, &derr)
			if isDecode {
				resp.Violations = decodeViolation(derr)
			}
			switch {
			case !isDecode && errors.As(err, &verr):
				resp.ErrorKind, resp.Violations = "validate", violationsJSON(verr.Violations)
			case errors.As(err, &serr):
				resp.ErrorKind = "strict"
				resp.Violations = &[]violation{{FieldPath: serr.FieldPath, Message: serr.Reason, Line: serr.Line, Column: serr.Column, Code: derr.Code}}
			}
			return resp, err
		}
		if req.Op == "lib_parse_file" {
			return &response{OK: true}, nil
		}
		bin, err := wireMarshal.Marshal(msg)
		if err != nil {
			return nil, err
		}
		out, err := taskspec.MarshalYAML(msg)
		if err != nil {
			return nil, fmt.Errorf("marshal: %w", err)
		}
		return &response{OK: true, BinpbB64: b64(bin), YAMLB64: b64(out)}, nil
	case "lib_check":
		data, err := needBytes(req.Op, "yaml_b64", req.YAMLB64)
		if err != nil {
			return nil, err
		}
		f := taskspec.YAML
		if req.Format != "" {
			if f, err = taskspec.ParseFormat(req.Format); err != nil {
				return nil, badRequest("%v", err)
			}
		}
		out := []problem{}
		for _, v := range taskspec.CheckFormat(data, f) {
			out = append(out, problem{Code: v.Code, FieldPath: v.FieldPath, Line: v.Line, Column: v.Column,
				Message: v.Message, Hint: v.Hint, Severity: v.Severity, Fix: v.Fix})
		}
		return &response{OK: true, Problems: &out}, nil
	case "lib_marshal", "lib_validate", "lib_save":
		bin, err := needBytes(req.Op, "binpb_b64", req.BinpbB64)
		if err != nil {
			return nil, err
		}
		var msg taskspecv1.TaskSpec
		if err := proto.Unmarshal(bin, &msg); err != nil {
			return nil, badRequest("binpb_b64: %v", err)
		}
		if req.Op == "lib_save" {
			if req.Path == nil {
				return nil, badRequest("lib_save needs path")
			}
			if err := taskspec.Save(*req.Path, &msg); err != nil {
				resp := &response{}
				var werr *taskspec.WriteError
				var verr *taskspec.ValidationError
				switch {
				case errors.As(err, &werr):
					resp.Violations = &[]violation{{FieldPath: werr.FieldPath, Message: werr.Message}}
				case errors.As(err, &verr): // Validate refuses a spec too large to write (TS107)
					resp.Violations = violationsJSON(verr.Violations)
				}
				return resp, err
			}
			return &response{OK: true}, nil
		}
		if req.Op == "lib_validate" {
			verr := ""
			if err := taskspec.Validate(&msg); err != nil {
				verr = err.Error()
			}
			return &response{OK: true, Violations: violationsJSON(taskspec.Violations(&msg)), ValidateError: &verr}, nil
		}
		out, err := taskspec.MarshalYAML(&msg)
		if err != nil {
			return nil, err
		}
		return &response{OK: true, YAMLB64: b64(out)}, nil
	case "lib_marshal_json", "lib_marshal_binpb":
		bin, err := needBytes(req.Op, "binpb_b64", req.BinpbB64)
		if err != nil {
			return nil, err
		}
		var msg taskspecv1.TaskSpec
		if err := proto.Unmarshal(bin, &msg); err != nil {
			return nil, badRequest("binpb_b64: %v", err)
		}
		marshal := taskspec.MarshalJSON
		if req.Op == "lib_marshal_binpb" {
			marshal = taskspec.MarshalBinpb
		}
		out, err := marshal(&msg)
		if err != nil {
			return nil, err
		}
		return &response{OK: true, DataB64: b64(out)}, nil
	case "lib_convert":
		data, err := needBytes(req.Op, "data_b64", req.DataB64)
		if err != nil {
			return nil, err
		}
		out, err := taskspec.Convert(data, taskspec.Format(req.From), taskspec.Format(req.To))
		if err != nil {
			return convertFailure(err), err
		}
		return &response{OK: true, DataB64: b64(out)}, nil
	case "signal_keys":
		spec, err := needSpec(req)
		if err != nil {
			return nil, err
		}
		keys := spec.SignalKeys()
		return &response{OK: true, Keys: &keys}, nil
	case "validate":
		spec, err := needSpec(req)
		if err != nil {
			return nil, err
		}
		if err := spec.Validate(); err != nil {
			return nil, err
		}
		return &response{OK: true}, nil
	case "styles":
		if req.Texts == nil {
			return nil, badRequest("styles needs texts")
		}
		recs, err := scalarStyles(req.Texts)
		if err != nil {
			return nil, err
		}
		return &response{OK: true, Styles: &recs}, nil
	case "":
		return nil, badRequest("missing op")
	default:
		return nil, badRequest("unknown op %q", req.Op)
	}
}

// convertFailure describes a failed taskspec.Convert for lib_convert.
func convertFailure(err error) *response {
	var verr *taskspec.ValidationError
	var derr *taskspec.DecodeError
	var werr *taskspec.WriteError
	switch {
	case errors.As(err, &derr): // found as a *ValidationError too when it holds a broken rule
		return &response{ErrorKind: "decode", Violations: decodeViolation(derr)}
	case errors.As(err, &verr):
		return &response{ErrorKind: "validate", Violations: violationsJSON(verr.Violations)}
	case errors.As(err, &werr):
		return &response{ErrorKind: "write", Violations: &[]violation{{FieldPath: werr.FieldPath, Message: werr.Message}}}
	}
	return &response{ErrorKind: "other"}
}

// decodeStrict is ParseTaskSpec without Validate: the same decoder, the
// same options and the same error wrapping.
func decodeStrict(data []byte) (*eval.TaskSpec, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var spec eval.TaskSpec
	if err := dec.Decode(&spec); err != nil {
		return nil, fmt.Errorf("eval: decode task spec: %w", err)
	}
	return &spec, nil
}

// specResponse reports a decoded spec with its canonical YAML. If the
// re-marshal fails the spec is still returned alongside the error.
func specResponse(spec *eval.TaskSpec) (resp *response, err error) {
	resp = &response{OK: true, Spec: toSpecJSON(spec)}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("marshal: panic: %v", p)
		}
	}()
	data, err := spec.MarshalYAML()
	if err != nil {
		return resp, fmt.Errorf("marshal: %w", err)
	}
	resp.YAMLB64 = b64(data)
	return resp, nil
}

// roundTrip reports whether data, strictly decoded, gives back spec. A
// false result means yaml.v3 wrote bytes it cannot read back as written.
func roundTrip(spec *eval.TaskSpec, data []byte) (ok bool, why string) {
	defer func() {
		if p := recover(); p != nil {
			ok, why = false, fmt.Sprintf("panic: %v", p)
		}
	}()
	got, err := decodeStrict(data)
	if err != nil {
		return false, err.Error()
	}
	want := *spec
	have := *got
	normalize(&want)
	normalize(&have)
	if reflect.DeepEqual(&want, &have) {
		return true, ""
	}
	return false, describeDiff(&want, &have)
}

// describeDiff names the first top-level key whose value differs.
func describeDiff(want, have *eval.TaskSpec) string {
	wj, _ := json.Marshal(toSpecJSON(want))
	hj, _ := json.Marshal(toSpecJSON(have))
	var wm, hm map[string]json.RawMessage
	_ = json.Unmarshal(wj, &wm)
	_ = json.Unmarshal(hj, &hm)
	// Every key either side wrote, so that a field added to the schema is
	// named too.
	keys := make([]string, 0, len(wm)+len(hm))
	for k := range wm {
		keys = append(keys, k)
	}
	for k := range hm {
		if _, ok := wm[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !bytes.Equal(wm[k], hm[k]) {
			return fmt.Sprintf("decoded value differs at %s: wrote %s, read back %s", k, wm[k], hm[k])
		}
	}
	return "decoded value differs"
}

func needSpec(req *request) (*eval.TaskSpec, error) {
	spec, err := parseSpecJSON(req.Spec)
	if err != nil {
		return nil, badRequest("%s: %v", req.Op, err)
	}
	return spec, nil
}

func needBytes(op, field string, v *string) ([]byte, error) {
	if v == nil {
		return nil, badRequest("%s needs %s", op, field)
	}
	data, err := base64.StdEncoding.DecodeString(*v)
	if err != nil {
		return nil, badRequest("%s: %v", field, err)
	}
	return data, nil
}

func b64(data []byte) *string {
	s := base64.StdEncoding.EncodeToString(data)
	return &s
}
