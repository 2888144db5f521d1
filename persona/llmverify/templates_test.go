package llmverify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

// TestEmbeddedTemplates renders the Utterances view of a two-line pair
// from the embedded template files and checks the whole prompt, and that
// every file's sha256 is recorded.
func TestEmbeddedTemplates(t *testing.T) {
	tp, err := DefaultTemplates()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range TemplateNames {
		b, err := embeddedPrompts.ReadFile("prompts/" + n)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if tp.SHA256[n] != hex.EncodeToString(sum[:]) || tp.Source[n] != "embedded" {
			t.Errorf("%s: hash %s from %s", n, tp.SHA256[n], tp.Source[n])
		}
	}
	it := Item{ID: "x", A: Side{Utterances: []string{"Bazinga!", "I am  not crazy."}}, B: Side{Utterances: []string{"Hi."}}}
	msgs, err := Messages(it, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := "Below are two sets of utterances. Decide whether both sets were spoken by the same person.\n\n" +
		"Set 1:\n- Bazinga!\n- I am not crazy.\n\nSet 2:\n- Hi.\n\n" +
		"Were Set 1 and Set 2 spoken by the same person?\n\n" +
		"Answer with one word: TRUE if they are the same person, FALSE if they are not."
	if msgs[0].Content != DefaultSystem || msgs[1].Content != want {
		t.Errorf("system %q\nuser %q\nwant %q", msgs[0].Content, msgs[1].Content, want)
	}
}

// TestLoadTemplates replaces two templates from a folder: the prompts use
// them, the other templates stay embedded, the hashes say which is which,
// and Run records them in its result.
func TestLoadTemplates(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(TemplateInstruction, "Reply True or False.\n")
	write(TemplateUtterances, "A: {{index .Sets 0 | len}} lines; B: {{index .Sets 1 | len}} lines. Same speaker?\n")
	tp, err := LoadTemplates(dir)
	if err != nil {
		t.Fatal(err)
	}
	def, _ := DefaultTemplates()
	if tp.SHA256[TemplateInstruction] == def.SHA256[TemplateInstruction] || tp.SHA256[TemplateSystem] != def.SHA256[TemplateSystem] ||
		tp.Source[TemplateInstruction] != filepath.Join(dir, TemplateInstruction) || tp.Source[TemplateSystem] != "embedded" {
		t.Errorf("hashes %v, sources %v", tp.SHA256, tp.Source)
	}
	test := items()
	msgs, err := Messages(test[0], nil, Config{Templates: tp})
	if err != nil {
		t.Fatal(err)
	}
	if want := "A: 2 lines; B: 1 lines. Same speaker?\n\nReply True or False."; msgs[1].Content != want {
		t.Errorf("user message %q, want %q", msgs[1].Content, want)
	}
	srv := llmtest.New(func(llm.Request) string { return "TRUE" })
	t.Cleanup(srv.Close)
	client, err := llm.New(srv.Config("fake-gpt", ""))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), client, test[:2], nil, Config{Templates: tp}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Templates[TemplateInstruction] != tp.SHA256[TemplateInstruction] || len(res.Templates) != len(TemplateNames) {
		t.Errorf("result templates %v", res.Templates)
	}

	// A misspelt file name and a broken template are errors naming the file.
	write("instructions.tmpl", "x")
	if _, err := LoadTemplates(dir); err == nil || !strings.Contains(err.Error(), "instructions.tmpl") {
		t.Errorf("misspelt template: %v", err)
	}
	os.Remove(filepath.Join(dir, "instructions.tmpl"))
	write(TemplateSystem, "{{.Nope")
	if _, err := LoadTemplates(dir); err == nil || !strings.Contains(err.Error(), TemplateSystem) {
		t.Errorf("broken template: %v", err)
	}
}
