package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/sv/table2"
)

// TestConfigListsKeysDefaultsAndDocs checks `config transformer_ft --json`:
// every key with its type, the row's default and the field's doc comment.
func TestConfigListsKeysDefaultsAndDocs(t *testing.T) {
	code, stdout, stderr := reproRun("config", "--json", "transformer_ft")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out configKeysOutput
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	byKey := map[string]int{}
	for i, k := range out.Keys {
		byKey[k.Name] = i
		if k.Doc == "" {
			t.Errorf("key %s has no doc", k.Name)
		}
	}
	for key, want := range map[string]string{"lr": "0.001", "max_steps": "0", "layers": "2", "head": "mean", "warmup": "0.1", "glove": ""} {
		i, ok := byKey[key]
		if !ok {
			t.Errorf("key %s missing", key)
			continue
		}
		if out.Keys[i].Default != want {
			t.Errorf("%s: default %q, want %q", key, out.Keys[i].Default, want)
		}
	}
	if out.Keys[byKey["lr"]].Type != "float64" {
		t.Errorf("lr type %q", out.Keys[byKey["lr"]].Type)
	}
	// With the default preset, the row's CPU budget shows.
	_, stdout, _ = reproRun("config", "--json", "--preset", "cpu", "transformer_ft")
	out = configKeysOutput{}
	_ = json.Unmarshal([]byte(stdout), &out)
	for _, k := range out.Keys {
		if k.Name == "max_steps" && k.Default != "150" {
			t.Errorf("cpu preset: max_steps %q, want 150", k.Default)
		}
	}
	if code, _, stderr := reproRun("config", "nosuch"); code != 2 || !strings.Contains(stderr, "tfidf") {
		t.Errorf("unknown component: exit %d %s", code, stderr)
	}
}

// TestConfigPresetsCheckAgainstRealOptions applies every preset to every
// component it names, so a preset key that no struct has fails here.
func TestConfigPresetsCheckAgainstRealOptions(t *testing.T) {
	code, stdout, stderr := reproRun("config", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var list configListOutput
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tfidf", "glove-sif", "transformer", "use-lite", "pairs", "table2"} {
		if !slices.Contains(list.Components, want) {
			t.Errorf("components %v lack %s", list.Components, want)
		}
	}
	for _, p := range table2.Presets() {
		for _, c := range []string{"table2", "pairs", "transformer_ft", "use-lite_ft", "tfidf"} {
			if code, _, stderr := reproRun("config", "--preset", p.Name, c); code != 0 {
				t.Errorf("config --preset %s %s: exit %d %s", p.Name, c, code, stderr)
			}
		}
	}
}

// TestReproducePresetNamesRows checks that a preset with rows runs them
// (dry run) with its row settings, and that --quick and --preset conflict.
func TestReproducePresetNamesRows(t *testing.T) {
	p := reproPlanOf(t, "--preset", "best-cpu")
	if strings.Join(p.Encoders, ",") != "tfidf,transformer,transformer_ft" || len(p.Mixed) != 0 {
		t.Errorf("best-cpu rows %v mixed %v", p.Encoders, p.Mixed)
	}
	if rs := p.RowSettings["transformer_ft"]; rs["max_steps"] != "0" || rs["ngram_buckets"] != "131072" || rs["glove"] != "true" {
		t.Errorf("best-cpu transformer_ft settings %v", rs)
	}
	if code, _, stderr := reproRun("reproduce", "--dry-run", "--quick", "--preset", "paper"); code != 2 || !strings.Contains(stderr, "--quick is --preset quick") {
		t.Errorf("--quick --preset paper: exit %d %s", code, stderr)
	}
	if code, _, stderr := reproRun("reproduce", "--dry-run", "--set", "tfidf.max_featurs=5"); code != 2 || !strings.Contains(stderr, "max_features") {
		t.Errorf("typo in --set: exit %d %s", code, stderr)
	}
}
