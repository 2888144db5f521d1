package importers

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// putTemp writes a file of the given content into a fresh folder.
func putTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHPD(t *testing.T) {
	res := importFixture(t, "hpd", Options{}, "hpd/sessions.json")
	// Sessions in file order; labels as the release writes them ("Harry",
	// "Filth": no list of known characters renames them), "Classmate"
	// merged into the one longer label starting with it; the text after
	// the first colon only.
	checkRows(t, res.Utterances,
		"Session-2|0|Ollivanders|Good afternoon,",
		"Session-2|1|Hagrid|Harry, this is Mr. Ollivander.",
		"Session-2|2|Harry|Hello.",
		"Session-1|0|Petunia|Bad news, Vernon, Mrs. Figg’s broken her leg.",
		"Session-1|1|Filth|Mess and muck everywhere!",
		"Session-1|2|Classmate 1|Look at him: a wizard.",
		"Session-1|3|Classmate 1|And a squib.",
	)
	checkDropped(t, res.Counts, map[string]int{DropMultipleSpeakers: 1, DropNoSpeaker: 1, DropEmptyText: 1})
	if u := res.Utterances[0]; u.Episode != "Book1-chapter5" || u.Scene != "Diagon Alley, the wand shop." || u.Source != "hpd" {
		t.Errorf("metadata %+v", u)
	}
	res = importFixture(t, "hpd", Options{Params: map[string]string{"responses": "true"}}, "hpd/sessions.json")
	// The positive_response is said by the one "relations with Harry"
	// names.
	if n := len(res.Utterances); n != 8 || res.Utterances[3].Speaker != "Harry" || res.Utterances[3].Text != "Hello, sir." {
		t.Errorf("with responses: %d rows, %+v", n, res.Utterances[3])
	}
	noRel := putTemp(t, "no-relations.json", `{"Session-1": {"dialogue": ["Ron: hi"], "positive_response": "Hello."}}`)
	_, err := Import(context.Background(), "hpd", []string{noRel}, Options{Params: map[string]string{"responses": "true"}})
	wantInputError(t, err, noRel, 1, `no "relations with NAME" key naming who gives it`)
	_, err = Import(context.Background(), "hpd", []string{"testdata/hpd/bad.json"}, Options{})
	wantInputError(t, err, "testdata/hpd/bad.json", 4, `dialogue line 2 "no colon here": expected "Name: text"`)
	empty := putTemp(t, "empty-key.json", `{"": {"dialogue": ["Harry: hi"]}}`)
	_, err = Import(context.Background(), "hpd", []string{empty}, Options{})
	wantInputError(t, err, empty, 1, "empty name")
	_, err = Import(context.Background(), "hpd", []string{"testdata/hpd/sessions.json"}, Options{Params: map[string]string{"responses": "maybe"}})
	if err == nil {
		t.Error("responses=maybe accepted")
	}
}
