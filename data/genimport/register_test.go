package genimport

import (
	"context"
	"errors"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
)

func TestRegisteredFormats(t *testing.T) {
	ctx := context.Background()
	direct, _, err := ReadChatHaruhi([]string{"testdata/chatharuhi"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := importers.Import(ctx, FormatChatHaruhi, []string{"testdata/chatharuhi"}, importers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Utterances) != len(direct) || res.Counts.Dropped["real-copy"] != 2 {
		t.Fatalf("import: %d rows (want %d), counts %+v", len(res.Utterances), len(direct), res.Counts)
	}
	// The same rows (importers walks folders in byte order, this package
	// in natural order, so the order may differ).
	key := func(u data.Utterance) string {
		return u.ConversationID + "|" + u.Speaker + "|" + u.Text + "|" + u.AgentModel + "|" + u.Role
	}
	want := map[string]int{}
	for _, u := range direct {
		want[key(u)]++
	}
	for _, u := range res.Utterances {
		if want[key(u)] == 0 {
			t.Errorf("unexpected row %+v", u)
		}
		want[key(u)]--
	}
	// Settings reach the reader; Source replaces the prefix.
	res, err = importers.Import(ctx, FormatRoleBench, []string{"testdata/rolebench"},
		importers.Options{Source: "rb", Params: map[string]string{"agent_model": "mine", "context": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	u := res.Utterances[0]
	if u.AgentModel != "mine" || u.Speaker != "User" || u.Source != "rb/instruction-generalization/role_specific/rolegpt_baseline" {
		t.Errorf("row %+v", u)
	}
	if _, err := importers.Import(ctx, FormatRoleBench, []string{"testdata/rolebench"}, importers.Options{Params: map[string]string{"context": "maybe"}}); err == nil {
		t.Error("bad boolean setting accepted")
	}
	// Malformed input is an *InputError naming file and line.
	_, err = importers.Import(ctx, FormatRoleBench, []string{"testdata/bad_rolebench.jsonl"}, importers.Options{})
	var ie *importers.InputError
	if !errors.As(err, &ie) || ie.Line != 1 || ie.File != "testdata/bad_rolebench.jsonl" {
		t.Fatalf("error %v", err)
	}
	for _, f := range []string{FormatCharacterLLM, FormatPairRecords} {
		if _, ok := importers.Lookup(f); !ok {
			t.Errorf("format %s not registered", f)
		}
	}
}
