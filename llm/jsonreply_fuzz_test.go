package llm

import (
	"strings"
	"testing"
)

// FuzzReplyJSON feeds arbitrary model replies to the JSON reply parser:
// it never panics, an extracted object is a {...} slice of the reply, and
// a reply that decodes had an object to extract.
func FuzzReplyJSON(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, "Sure!\n```json\n{\"score\": 3, \"why\": \"ok\"}\n```\nDone.", `{"s": "}{\"", "n": [1, {"x": 2}]}`,
		"```\n{\"a\":\n```", `{"a": "\`, "{{{{", "no object", "```json\n{} trailing\n```", "{\"caf\xe9\": 1}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		obj, err := ExtractJSON(reply)
		if err == nil && (!strings.HasPrefix(obj, "{") || !strings.HasSuffix(obj, "}") || !strings.Contains(reply, obj)) {
			t.Fatalf("ExtractJSON(%q) = %q: not a {...} slice of the reply", reply, obj)
		}
		var m map[string]any
		if derr := DecodeJSON(reply, &m); derr == nil && err != nil {
			t.Fatalf("DecodeJSON(%q) succeeded where ExtractJSON failed: %v", reply, err)
		}
		var v struct {
			Score float64  `json:"score"`
			Why   string   `json:"why"`
			Tags  []string `json:"tags"`
		}
		_ = DecodeJSON(reply, &v)
	})
}
