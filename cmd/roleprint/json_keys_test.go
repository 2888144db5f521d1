package main

import (
	"encoding/json"
	"testing"
)

// TestJSONKeysPresentWhenEmpty: the --json objects (and their documented
// rows) keep these keys when their value is empty (null, "", false, 0),
// so every output of a command has the same key set.
func TestJSONKeysPresentWhenEmpty(t *testing.T) {
	cases := []struct {
		name string
		v    any
		keys []string
	}{
		{"align", alignJSON{}, []string{"script", "transcript", "audio", "synthetic", "encoder", "threshold", "check", "flagged", "stats",
			"segments", "segment_turns", "boundaries", "out"}},
		{"align check", alignCheckJSON{}, []string{"model", "encoder", "offline_fallback", "note"}},
		{"align flagged row", alignFlagJSON{}, []string{"index", "speaker", "text", "transcript", "similarity", "start"}},
		{"metrics dedup", dedupJSON{}, []string{"dialogues", "kept", "dropped", "threshold", "method", "models", "offline_fallback",
			"comparisons", "seconds", "out", "groups", "duplicates", "note"}},
		{"metrics dedup group", dedupGroupJSON{}, []string{"language", "encoder", "offline_fallback", "threshold", "dialogues", "kept"}},
		{"metrics text row", textMetricsJSON{}, []string{"system", "n", "rouge_l", "meteor", "bertscore_f1", "bertscore_p", "bertscore_r",
			"bertscore_f1_rescaled", "bertscore_p_rescaled", "bertscore_r_rescaled"}},
		{"metrics bertscore", bertScoreJSON{}, []string{"model", "contextual", "offline_fallback", "layer", "layers", "layer_source",
			"idf", "lang", "baseline", "rescaled", "note", "description"}},
		{"import", importOutput{}, []string{"format", "settings", "segmentation", "out", "inputs", "files"}},
		{"reproduce", reproduceOutput{}, []string{"transfer", "pairs", "skipped", "setup", "backend", "notes"}},
		{"eval input", evalInputFile{}, []string{"path", "bytes", "rows", "import"}},
		{"stats import row", statsImport{}, []string{"file", "format", "settings", "columns", "conversation_rule", "scene_lines"}},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, k := range c.keys {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: key %q missing when empty: %s", c.name, k, b)
			}
		}
	}
}
