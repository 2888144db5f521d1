package distill

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/persona/script"
)

// Corpus is what a backend may look at before the units run: all chunks,
// the selected characters and every character's own lines.
type Corpus struct {
	Chunks []script.Chunk
	// Characters are the selected characters, most lines first.
	Characters []string
	// Lines maps every speaker (selected or not) to its lines in order.
	Lines map[string][]string
}

// Backend performs the distillation steps. Implementations must be safe
// for concurrent calls of the step methods after Prepare.
type Backend interface {
	// Name is the registered name ("extractive", "llm").
	Name() string
	// Fingerprint identifies everything that changes the backend's
	// answers (method version, model, temperature); it enters every unit
	// key, so changing it recomputes the units.
	Fingerprint() string
	// Extractive reports whether no language model is involved.
	Extractive() bool
	// Prepare sees the whole corpus once before any step.
	Prepare(ctx context.Context, c *Corpus) error
	// Event summarises one chunk; known are the selected characters.
	Event(ctx context.Context, ch script.Chunk, known []string) (Event, error)
	// Personality describes a character from its events and a sample of
	// its lines.
	Personality(ctx context.Context, character string, events []Event, lines []string) (Personality, error)
	// Relationship describes a pair from the events they share.
	Relationship(ctx context.Context, a, b string, shared []Event, c *Corpus) (Relationship, error)
	// Style describes how a character speaks from its lines.
	Style(ctx context.Context, character string, lines []string) (Style, error)
	// Prompt writes the second-person role-play prompt.
	Prompt(ctx context.Context, p Profile) (Persona, error)
}

// WholeEvents is implemented by backends that read every event of a
// character or pair instead of a bounded sample: statistics cost nothing
// per event, whereas an LLM's context is limited. When WholeEvents returns
// true, the pipeline passes all events to Personality and Relationship
// instead of Config.MaxEvents evenly sampled ones, so that counts and
// frequent topics describe the whole script.
type WholeEvents interface {
	WholeEvents() bool
}

// Options are what a backend factory may use.
type Options struct {
	// LLM is the client for the llm backend (built by the caller from
	// flags or the environment).
	LLM *llm.Client
}

var (
	regMu    sync.Mutex
	backends = map[string]func(Options) (Backend, error){}
)

// Register adds a backend factory under name; registering a name twice
// panics (a programming error).
func Register(name string, factory func(Options) (Backend, error)) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := backends[name]; dup {
		panic("distill: backend registered twice: " + name)
	}
	backends[name] = factory
}

// Backends lists the registered backend names.
func Backends() []string {
	regMu.Lock()
	defer regMu.Unlock()
	var out []string
	for n := range backends {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// NewBackend builds the backend registered under name.
func NewBackend(name string, opts Options) (Backend, error) {
	regMu.Lock()
	f, ok := backends[name]
	regMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("distill: unknown backend %q (known: %s)", name, strings.Join(Backends(), ", "))
	}
	return f(opts)
}

func init() {
	Register("extractive", func(Options) (Backend, error) { return NewExtractive(), nil })
	Register("llm", func(o Options) (Backend, error) {
		if o.LLM == nil {
			return nil, fmt.Errorf("distill: the llm backend needs an LLM client (set --llm-model and --llm-base-url, or ROLEPRINT_LLM_MODEL)")
		}
		return NewLLM(o.LLM), nil
	})
}
