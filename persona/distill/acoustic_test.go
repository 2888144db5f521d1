package distill

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPromptIncludesAcousticProfile distils the fixture with an acoustic
// profile for one character: that character's second-person prompt
// describes its voice, the others' do not, and the LLM backend is given
// the profile to write from.
func TestPromptIncludesAcousticProfile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "profile.json")
	line := "Pitch: High (mean F0 212 Hz); Energy: Medium (63.1 dB); Speaking rate: Low (3.1 syllables/s)"
	res0, err := Run(context.Background(), fixture(t), NewExtractive(), t.TempDir(), smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	who := res0.Characters[0]
	if err := os.WriteFile(path, []byte(`{"characters": [], "tags": {"`+who+`": "`+line+`", "Nobody": " "}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	prof, err := ReadAcousticProfiles(path)
	if err != nil || len(prof) != 1 || prof[who] != line {
		t.Fatalf("profiles %v, %v", prof, err)
	}
	cfg := smallConfig()
	cfg.Acoustic = prof
	res, err := Run(context.Background(), fixture(t), NewExtractive(), t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Personas {
		has := strings.Contains(p.Prompt, "How your voice sounds") && strings.Contains(p.Prompt, "Pitch: High")
		if has != (p.Character == who) {
			t.Errorf("%s: acoustic characteristics in prompt = %v:\n%s", p.Character, has, p.Prompt)
		}
	}

	srv, _ := newFake(t)
	l := llmBackend(t, srv, t.TempDir())
	if _, err := l.Prompt(context.Background(), Profile{Personality: Personality{Character: who}, Acoustic: line}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	u := reqs[len(reqs)-1].Messages[len(reqs[len(reqs)-1].Messages)-1].Content
	if !strings.Contains(u, "Acoustic characteristics (measured on the character's recordings): "+line) || !strings.Contains(u, "covering personality, relationships, linguistic style, acoustic characteristics") {
		t.Errorf("LLM prompt request lacks the acoustic profile:\n%s", u)
	}
	if _, err := ReadAcousticProfiles(filepath.Join(dir, "nope.json")); err == nil {
		t.Error("missing file read")
	}
}
