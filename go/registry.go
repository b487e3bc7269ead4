package taskspec

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
)

// Generator produces TaskSpecs for a single language. Each per-language
// adapter implements it and is registered in a [Registry]; the interface is
// the seam between a language-agnostic harness and language-specific task
// synthesis. A Generator served by taskspecgrpc.NewGeneratorServer is called
// concurrently.
type Generator interface {
	// Language reports the one language this generator produces tasks for.
	Language() taskspecv1.Language
	// Generate synthesizes one TaskSpec framed by opts. It must return a
	// spec that passes Validate, or an error. Collaborators such as a
	// knowledge-graph reader belong in the generator's constructor, not in
	// the options.
	Generate(ctx context.Context, opts *taskspecv1.GenerateOptions) (*taskspecv1.TaskSpec, error)
}

// Registry maps a Language to the Generator for it. It is safe for
// concurrent use: look-ups take a read lock, registration a write lock. The
// zero value is an empty registry ready for use. A nil *Registry is an
// empty one that cannot be added to: Lookup finds nothing, Languages is
// empty and Register returns an error.
type Registry struct {
	mu   sync.RWMutex
	gens map[taskspecv1.Language]Generator
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry {
	return &Registry{gens: make(map[taskspecv1.Language]Generator)}
}

// Register adds g under its Language. It fails on a nil generator, a
// language that is UNSPECIFIED or not defined by the schema, and a second
// generator for one language, so that wiring mistakes surface at start-up
// rather than one generator silently shadowing another. The messages are
// these (the eval package's, which callers match):
//
//	taskspec: cannot register nil generator
//	taskspec: cannot register generator in a nil registry
//	taskspec: cannot register generator for invalid language "42"
//	taskspec: generator for language "go" already registered
//
// where the language is its YAML spelling ("" for UNSPECIFIED, the digits
// for an undefined number), quoted with %q.
func (r *Registry) Register(g Generator) error {
	if g == nil {
		return errors.New(errPrefix + "cannot register nil generator")
	}
	if r == nil {
		return errors.New(errPrefix + "cannot register generator in a nil registry")
	}
	lang := g.Language()
	text := languageEnum.text(lang)
	if !languageEnum.valid(text) {
		return fmt.Errorf("%scannot register generator for invalid language %q", errPrefix, text)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gens == nil {
		r.gens = make(map[taskspecv1.Language]Generator)
	}
	if _, dup := r.gens[lang]; dup {
		return fmt.Errorf("%sgenerator for language %q already registered", errPrefix, text)
	}
	r.gens[lang] = g
	return nil
}

// Lookup returns the generator registered for lang, and false when there is
// none.
func (r *Registry) Lookup(lang taskspecv1.Language) (Generator, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	g, ok := r.gens[lang]
	return g, ok
}

// Languages returns the registered languages sorted by their YAML
// spelling, so that listings and help output are the same in every service
// and on every run.
func (r *Registry) Languages() []taskspecv1.Language {
	if r == nil {
		return []taskspecv1.Language{}
	}
	r.mu.RLock()
	out := make([]taskspecv1.Language, 0, len(r.gens))
	for l := range r.gens {
		out = append(out, l)
	}
	r.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return languageEnum.text(out[i]) < languageEnum.text(out[j]) })
	return out
}
