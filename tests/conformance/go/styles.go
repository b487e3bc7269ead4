package main

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The styles op: which scalar style yaml.v3 picks for a string in each of
// the four positions a TaskSpec can put one. The Python writer's single
// style-selection function is tested against these answers.

type styleRecord struct {
	Text      string `json:"text"`
	Context   string `json:"context"`
	Style     string `json:"style"`
	SimpleKey *bool  `json:"simple_key,omitempty"`
	YAML      string `json:"yaml"`
}

type styleValue struct {
	V string `yaml:"v"`
}

type styleFlowSeq struct {
	V []string `yaml:"v,flow"`
}

type styleFlowMap struct {
	M map[string]int `yaml:"m,flow"`
}

// styleOf names the style of a scalar from its first byte.
func styleOf(scalar string) string {
	if scalar == "" {
		return "plain"
	}
	switch scalar[0] {
	case '\'':
		return "single-quoted"
	case '"':
		return "double-quoted"
	case '|':
		return "literal"
	}
	return "plain"
}

func scalarStyles(texts []string) ([]styleRecord, error) {
	out := make([]styleRecord, 0, 4*len(texts))
	for _, s := range texts {
		value, err := yaml.Marshal(styleValue{s})
		if err != nil {
			return nil, fmt.Errorf("value %q: %w", s, err)
		}
		out = append(out, styleRecord{s, "value", styleOf(strings.TrimPrefix(string(value), "v: ")), nil, string(value)})

		key, err := yaml.Marshal(map[string]int{s: 1})
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", s, err)
		}
		simple := !strings.HasPrefix(string(key), "? ")
		out = append(out, styleRecord{s, "key", styleOf(strings.TrimPrefix(string(key), "? ")), &simple, string(key)})

		flow, err := yaml.Marshal(styleFlowSeq{[]string{s}})
		if err != nil {
			return nil, fmt.Errorf("flow item %q: %w", s, err)
		}
		out = append(out, styleRecord{s, "flow", styleOf(strings.TrimPrefix(string(flow), "v: [")), nil, string(flow)})

		flowKey, err := yaml.Marshal(styleFlowMap{map[string]int{s: 1}})
		if err != nil {
			return nil, fmt.Errorf("flow key %q: %w", s, err)
		}
		rest := strings.TrimPrefix(string(flowKey), "m: {")
		fsimple := !strings.HasPrefix(rest, "? ")
		out = append(out, styleRecord{s, "flow_key", styleOf(strings.TrimPrefix(rest, "? ")), &fsimple, string(flowKey)})
	}
	return out, nil
}
