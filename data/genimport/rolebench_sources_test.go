package genimport

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// convRoles fails when a (source, conversation) holds rows of two roles.
func convRoles(t *testing.T, utts []data.Utterance) {
	t.Helper()
	roles := map[[2]string]string{}
	for _, u := range utts {
		k := [2]string{u.Source, u.ConversationID}
		if r, ok := roles[k]; ok && r != u.Role {
			t.Fatalf("conversation %s/%s holds roles %q and %q", k[0], k[1], r, u.Role)
		}
		roles[k] = u.Role
	}
}

// A RoleBench copy outside a rolebench-eng folder: general/test and
// role_specific/test keep apart.
func TestRoleBenchSplitsKeepApart(t *testing.T) {
	dir := t.TempDir()
	for path, line := range map[string]string{
		"general/test.jsonl":             `{"role": "Jack Sparrow", "question": "Q?", "generated": ["Rum."], "type": "script_agnostic"}`,
		"role_specific/test.jsonl":       `{"role": "Sheldon Cooper", "question": "Q?", "generated": ["Bazinga."], "type": "script_based"}`,
		"role_specific/train.jsonl":      `{"role": "Sheldon Cooper", "question": "Q?", "generated": ["Trains."], "type": "script_based"}`,
		"other/role_specific/test.jsonl": `{"role": "Coriolanus", "question": "Q?", "generated": ["Voices."]}`,
	} {
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	utts, _, err := ReadRoleBench([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{}
	for _, u := range utts {
		sources[u.Role+"|"+u.Text] = u.Source
	}
	want := map[string]string{
		"Jack Sparrow|Rum.":       "rolebench/general/test",
		"Sheldon Cooper|Bazinga.": "rolebench/" + filepath.Base(dir) + "/role_specific/test",
		"Sheldon Cooper|Trains.":  "rolebench/role_specific/train",
		"Coriolanus|Voices.":      "rolebench/other/role_specific/test",
	}
	for k, w := range want {
		if sources[k] != w {
			t.Errorf("%s: source %q, want %q", k, sources[k], w)
		}
	}
	convRoles(t, utts)
	if got := roleBenchSources([]string{"x/rolebench-zh/role_specific/test.jsonl"}); got["x/rolebench-zh/role_specific/test.jsonl"] != "rolebench/zh/role_specific/test" {
		t.Errorf("Chinese source %v", got)
	}
}
