package main

import (
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm"
)

// `persona distill --backend llm` and `judge --judge llm` with a model but
// no key and no --llm-base-url would send the script to the default
// hosted endpoint; they refuse, naming the flags and variables to set,
// before any request.
func TestLLMCommandsRefuseDefaultEndpointWithoutKey(t *testing.T) {
	clearLLMEnv(t)
	t.Setenv(llm.EnvModel, "gpt-4o")
	t.Setenv(llm.EnvCache, "off")
	cases := [][]string{
		{"persona", "distill", "--backend", "llm", "--out", t.TempDir(), personaFixture},
		{"judge", "--judge", "llm", "--protocol", "ablation", personaFixture},
	}
	for _, args := range cases {
		code, _, stderr := runPersonaCLI(t, args...)
		if code == 0 {
			t.Fatalf("%v: accepted the default endpoint without a key", args)
		}
		for _, want := range []string{"--llm-base-url", llm.EnvAPIKey, llm.EnvOpenAIKey, llm.DefaultBaseURL} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%v: message does not name %s: %s", args, want, stderr)
			}
		}
	}
	// No model at all: name the model flag too.
	t.Setenv(llm.EnvModel, "")
	code, _, stderr := runPersonaCLI(t, "persona", "distill", "--backend", "llm", "--out", t.TempDir(), personaFixture)
	if code == 0 || !strings.Contains(stderr, "--llm-model") {
		t.Fatalf("no model: exit %d, %s", code, stderr)
	}
}
