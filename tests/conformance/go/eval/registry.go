package eval

import (
	"context"
	"fmt"
	"sort"
	"sync"
)

// GenerateOptions carries the per-call inputs a generator needs to frame a
// task. It is intentionally small and I/O-free at this layer; downstream
// generators thread their own knowledge-graph reader and other
// collaborators through their constructor, not through this struct.
type GenerateOptions struct {
	// Difficulty optionally constrains the band of the generated task. The
	// zero value (empty string) lets the generator choose.
	Difficulty Difficulty
	// TemplateID optionally selects a specific template; empty lets the
	// generator pick.
	TemplateID string
}

// Generator produces a versioned TaskSpec for a single language. Each
// per-language adapter implements this interface and registers itself in a
// Registry. The interface is the seam between the language-agnostic harness
// and language-specific task synthesis.
type Generator interface {
	// Language reports the language this generator produces tasks for. A
	// generator handles exactly one language.
	Language() Language
	// Generate synthesizes one TaskSpec. Implementations must return a spec
	// that passes TaskSpec.Validate, or an error.
	Generate(ctx context.Context, opts GenerateOptions) (*TaskSpec, error)
}

// Registry maps a Language to the Generator that produces tasks for it. It
// is safe for concurrent use: lookups take a read lock, registration a
// write lock. A Registry is the lookup surface the harness uses to resolve
// a requested language to a concrete generator.
type Registry struct {
	mu   sync.RWMutex
	gens map[Language]Generator
}

// NewRegistry returns an empty Registry ready for use. The zero Registry is
// also usable.
func NewRegistry() *Registry {
	return &Registry{gens: make(map[Language]Generator)}
}

// Register adds g to the registry keyed by its Language. It errors on a nil
// generator, an invalid language, or a duplicate registration, so that
// collisions surface at wiring time rather than silently shadowing an
// earlier generator. The errors read:
//
//	eval: cannot register nil generator
//	eval: cannot register generator for invalid language "cobol"
//	eval: generator for language "go" already registered
//
// where the language is quoted with %q.
func (r *Registry) Register(g Generator) error {
	if g == nil {
		return fmt.Errorf("eval: cannot register nil generator")
	}
	lang := g.Language()
	if !lang.Valid() {
		return fmt.Errorf("eval: cannot register generator for invalid language %q", string(lang))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gens == nil {
		r.gens = make(map[Language]Generator)
	}
	if _, dup := r.gens[lang]; dup {
		return fmt.Errorf("eval: generator for language %q already registered", string(lang))
	}
	r.gens[lang] = g
	return nil
}

// Lookup returns the generator registered for lang. The boolean is false
// when no generator is registered for the language.
func (r *Registry) Lookup(lang Language) (Generator, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	g, ok := r.gens[lang]
	return g, ok
}

// Languages returns the registered languages in sorted (byte) order, so
// that listings and help output are stable across runs.
func (r *Registry) Languages() []Language {
	r.mu.RLock()
	langs := make([]Language, 0, len(r.gens))
	for l := range r.gens {
		langs = append(langs, l)
	}
	r.mu.RUnlock()
	sort.Slice(langs, func(i, j int) bool { return langs[i] < langs[j] })
	return langs
}
