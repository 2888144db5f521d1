package corpus

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

func TestDefaultMatchesManifest(t *testing.T) {
	utts, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	m, err := DefaultManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(utts) != m.Rows || Fingerprint(utts) != m.SHA256 {
		t.Fatalf("embedded file (%d rows, %s) does not match its manifest (%d rows, %s)",
			len(utts), Fingerprint(utts), m.Rows, m.SHA256)
	}
	if m.Counts.Sources != 37 {
		t.Errorf("manifest: %d plays, want 37", m.Counts.Sources)
	}
	plays := map[string]bool{}
	for _, u := range utts {
		if !strings.HasPrefix(u.Source, "shakespeare/") {
			t.Fatalf("source %q", u.Source)
		}
		plays[u.Source] = true
	}
	if len(plays) != m.Counts.Sources {
		t.Errorf("%d plays in the file, manifest says %d", len(plays), m.Counts.Sources)
	}
	if n := len(DefaultParquet()); n > 4<<20 {
		t.Errorf("embedded corpus is %d bytes; keep it under 4 MiB", n)
	}
}

func TestDefaultReturnsCopies(t *testing.T) {
	a, _ := Default()
	a[0].Speaker = "Changed"
	b, err := Default()
	if err != nil || b[0].Speaker == "Changed" {
		t.Fatalf("Default shares its slice with callers (%v)", err)
	}
}

// TestEmbeddedCorpusIsUpToDate re-imports the Shakespeare pages and fails
// when the embedded file differs from what the importer now produces: run
// `go generate ./data/corpus` after changing the importer.
func TestEmbeddedCorpusIsUpToDate(t *testing.T) {
	dir, ok := data.SharedCorpus(DefaultSharedCorpus)
	if !ok {
		t.Skip("shared corpus shakespeare-mit not present")
	}
	res, m, err := Build(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := DefaultManifest()
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != embedded.Rows || m.SHA256 != embedded.SHA256 {
		t.Fatalf("embedded corpus is stale: importer gives %d rows (%s), embedded has %d (%s); run go generate ./data/corpus",
			m.Rows, m.SHA256, embedded.Rows, embedded.SHA256)
	}
	utts, _ := Default()
	if Fingerprint(res.Utterances) != Fingerprint(utts) {
		t.Fatal("embedded rows differ from a fresh import")
	}
	if !reflect.DeepEqual(m, embedded) {
		t.Errorf("manifest is stale:\n got  %+v\n have %+v\nrun go generate ./data/corpus", m, embedded)
	}
}

func TestFingerprintSeesEveryField(t *testing.T) {
	base := []data.Utterance{{Source: "s", ConversationID: "c", Speaker: "A", Text: "hi"}}
	f0 := Fingerprint(base)
	one := 1.0
	for i, mut := range []func(u *data.Utterance){
		func(u *data.Utterance) { u.Source = "t" },
		func(u *data.Utterance) { u.ConversationID = "d" },
		func(u *data.Utterance) { u.Episode = "e" },
		func(u *data.Utterance) { u.Scene = "x" },
		func(u *data.Utterance) { u.Turn = 1 },
		func(u *data.Utterance) { u.Speaker = "B" },
		func(u *data.Utterance) { u.Text = "ho" },
		func(u *data.Utterance) { u.StartS = &one },
		func(u *data.Utterance) { u.EndS = &one },
		func(u *data.Utterance) { u.AudioPath = "a.wav" },
		func(u *data.Utterance) { u.AgentModel = "m" },
		func(u *data.Utterance) { u.Role = "r" },
		// Field boundaries count: "s"+"c" is not "sc"+"".
		func(u *data.Utterance) { u.Source, u.ConversationID = "sc", "" },
	} {
		u := base[0]
		mut(&u)
		if Fingerprint([]data.Utterance{u}) == f0 {
			t.Errorf("mutation %d not seen", i)
		}
	}
}

func TestDefaultRoundTrip(t *testing.T) {
	// Writing the corpus to disk and reading it back keeps the fingerprint.
	utts, _ := Default()
	p := filepath.Join(t.TempDir(), FileName)
	if err := data.WriteUtterances(p, utts); err != nil {
		t.Fatal(err)
	}
	back, err := data.ReadUtterances(p)
	if err != nil || Fingerprint(back) != Fingerprint(utts) {
		t.Fatalf("round trip changed the corpus (%v)", err)
	}
}
