package eval

import (
	"context"
	"reflect"
	"sync"
	"testing"
)

type fakeGen struct{ lang Language }

func (f fakeGen) Language() Language { return f.lang }

func (f fakeGen) Generate(ctx context.Context, opts GenerateOptions) (*TaskSpec, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := validSpec()
	s.Language = f.lang
	if opts.Difficulty != "" {
		s.Difficulty = opts.Difficulty
	}
	s.GeneratedFrom.TemplateID = opts.TemplateID
	return s, nil
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	if got := r.Languages(); len(got) != 0 {
		t.Fatalf("new registry languages = %v", got)
	}
	if _, ok := r.Lookup(LanguageGo); ok {
		t.Fatal("lookup on empty registry succeeded")
	}
	errCases := []struct {
		g    Generator
		want string
	}{
		{nil, "eval: cannot register nil generator"},
		{fakeGen{"cobol"}, `eval: cannot register generator for invalid language "cobol"`},
		{fakeGen{""}, `eval: cannot register generator for invalid language ""`},
	}
	for _, tc := range errCases {
		if err := r.Register(tc.g); err == nil || err.Error() != tc.want {
			t.Errorf("Register(%v) = %v, want %q", tc.g, err, tc.want)
		}
	}
	for _, l := range []Language{LanguageTypeScript, LanguageGo, LanguagePython} {
		if err := r.Register(fakeGen{l}); err != nil {
			t.Fatalf("Register(%q): %v", l, err)
		}
	}
	if err := r.Register(fakeGen{LanguageGo}); err == nil || err.Error() != `eval: generator for language "go" already registered` {
		t.Errorf("duplicate Register = %v", err)
	}
	want := []Language{LanguageGo, LanguagePython, LanguageTypeScript}
	if got := r.Languages(); !reflect.DeepEqual(got, want) {
		t.Errorf("Languages() = %v, want %v", got, want)
	}
	g, ok := r.Lookup(LanguagePython)
	if !ok || g.Language() != LanguagePython {
		t.Fatalf("Lookup(python) = %v, %v", g, ok)
	}
	spec, err := g.Generate(context.Background(), GenerateOptions{Difficulty: DifficultyHard, TemplateID: "tpl"})
	if err != nil {
		t.Fatal(err)
	}
	if err := spec.Validate(); err != nil {
		t.Errorf("generated spec invalid: %v", err)
	}
}

func TestZeroRegistryIsUsable(t *testing.T) {
	var r Registry
	if err := r.Register(fakeGen{LanguageGo}); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Lookup(LanguageGo); !ok {
		t.Fatal("lookup failed")
	}
}

func TestRegistryConcurrentUse(t *testing.T) {
	r := NewRegistry()
	var wg sync.WaitGroup
	errs := make(chan error, 30)
	for i := 0; i < 30; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			l := []Language{LanguageGo, LanguagePython, LanguageTypeScript}[i%3]
			errs <- r.Register(fakeGen{l})
			r.Lookup(l)
			r.Languages()
		}(i)
	}
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		if err == nil {
			ok++
		}
	}
	if ok != 3 {
		t.Errorf("%d registrations succeeded, want exactly 3", ok)
	}
}
