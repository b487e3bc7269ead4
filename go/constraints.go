package taskspec

import (
	"strings"
	"unicode/utf8"
)

// The kinds of constraint of the contract, one function each. A kind is a
// field of a rules message of proto/taskspec/v1/options.proto (StringRules,
// Int64Rules, EnumRules, RepeatedRules) that declares itself with
// (taskspec.v1.constraint); protoc-gen-taskspec-go lists every declared
// kind in the table constraints (contract_gen.go) with the function named
// after it (taskspec.v1.StringRules.max_len is stringRulesMaxLen), so that
// a kind declared without its function here does not compile. Each
// reports whether a value keeps the constraint, given its bound (0 for a
// Demand). The Python library's taskspec/_constraints.py holds the same
// tests, and the rule cases (testdata/validate_rules.json) check that the
// two agree.

// stringRulesNotBlank: a character that is not white space to
// strings.TrimSpace, the Go package's notion of blank (unicode.IsSpace).
func stringRulesNotBlank(v ruleValue, _ int64) bool { return strings.TrimSpace(v.text) != "" }

// stringRulesMinLen: at least bound characters (code points, not bytes).
func stringRulesMinLen(v ruleValue, bound int64) bool {
	return int64(utf8.RuneCountInString(v.text)) >= bound
}

// stringRulesMaxLen: at most bound characters (code points, not bytes).
func stringRulesMaxLen(v ruleValue, bound int64) bool {
	return int64(utf8.RuneCountInString(v.text)) <= bound
}

// int64RulesEquals: exactly bound.
func int64RulesEquals(v ruleValue, bound int64) bool { return v.num == bound }

// int64RulesAtLeast: no smaller than bound.
func int64RulesAtLeast(v ruleValue, bound int64) bool { return v.num >= bound }

// int64RulesAtMost: no larger than bound.
func int64RulesAtMost(v ruleValue, bound int64) bool { return v.num <= bound }

// enumRulesDefined: text that spells a defined value other than
// UNSPECIFIED.
func enumRulesDefined(v ruleValue, _ int64) bool { return v.defined != nil && v.defined(v.text) }

// repeatedRulesNotEmpty: at least one item.
func repeatedRulesNotEmpty(v ruleValue, _ int64) bool { return v.num >= 1 }

// repeatedRulesMinItems: at least bound items.
func repeatedRulesMinItems(v ruleValue, bound int64) bool { return v.num >= bound }

// repeatedRulesMaxItems: at most bound items.
func repeatedRulesMaxItems(v ruleValue, bound int64) bool { return v.num <= bound }
