package importers

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// Integration tests on the real corpora in ../shared/corpora; each skips
// when its corpus is absent and reads the whole corpus (a second or less).

func sharedCorpus(t *testing.T, name string) string {
	t.Helper()
	p, ok := data.SharedCorpus(name)
	if !ok {
		t.Skipf("shared corpus %s not present", name)
	}
	return p
}

func importShared(t *testing.T, format string, opts Options, paths ...string) *Result {
	t.Helper()
	res, err := Import(context.Background(), format, paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %+v", format, res.Counts)
	return res
}

// topSpeakers returns speakers by utterance count, most first.
func topSpeakers(utts []data.Utterance, n int) []string {
	cnt := map[string]int{}
	for _, u := range utts {
		cnt[u.Speaker]++
	}
	names := make([]string, 0, len(cnt))
	for k := range cnt {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if cnt[names[i]] != cnt[names[j]] {
			return cnt[names[i]] > cnt[names[j]]
		}
		return names[i] < names[j]
	})
	return names[:min(n, len(names))]
}

func TestSharedTBBT(t *testing.T) {
	dir := sharedCorpus(t, "tbbt")
	res := importShared(t, "tbbt", Options{}, filepath.Join(dir, "preprocessing", "raw_corpus"))
	c := res.Counts
	if c.Utterances < 40000 || c.Conversations < 2000 || c.Files != 202 {
		t.Errorf("counts %+v: want ≥ 40,000 utterances, ≥ 2,000 conversations, 202 files", c)
	}
	if top := topSpeakers(res.Utterances, 3); !reflect.DeepEqual(top, []string{"Sheldon", "Leonard", "Penny"}) {
		t.Errorf("top speakers %v", top)
	}
}

func TestSharedFriendsHTML(t *testing.T) {
	dir := sharedCorpus(t, "friends-fangj-html")
	res := importShared(t, "friends-html", Options{}, filepath.Join(dir, "season"))
	c := res.Counts
	// 229 pages, one (0423.html) superseded by its uncut version.
	if c.Files != 229 || c.Conversations < 3000 || c.Utterances < 55000 {
		t.Errorf("counts %+v", c)
	}
	top := topSpeakers(res.Utterances, 6)
	sort.Strings(top)
	if !reflect.DeepEqual(top, []string{"Chandler", "Joey", "Monica", "Phoebe", "Rachel", "Ross"}) {
		t.Errorf("top six speakers %v", top)
	}
	for _, u := range res.Utterances {
		if u.Episode == "s04e23" && u.ConversationID == "s04e23-c01" && strings.Contains(u.Text, "&nbsp;") {
			t.Fatalf("entity left in text: %q", u.Text)
		}
	}
}

func TestSharedFriendsJSON(t *testing.T) {
	dir := sharedCorpus(t, "friends-emorynlp")
	res := importShared(t, "friends-json", Options{}, dir)
	c := res.Counts
	// The character-identification and emotion-detection splits overlap:
	// the shared scenes are read once.
	if c.Files != 4 || c.Dropped[DropDuplicateConversation] == 0 || c.Conversations < 400 || c.Utterances < 7000 {
		t.Errorf("counts %+v", c)
	}
	seen := map[string]bool{}
	prev := ""
	for _, u := range res.Utterances {
		if u.ConversationID != prev && seen[u.ConversationID] {
			t.Fatalf("conversation %s is split", u.ConversationID)
		}
		seen[u.ConversationID], prev = true, u.ConversationID
	}
}

func TestSharedMELD(t *testing.T) {
	dir := sharedCorpus(t, "friends-meld")
	res := importShared(t, "meld-csv", Options{}, filepath.Join(dir, "data"))
	// Every data row is either kept or counted as dropped.
	rows := 0
	files, _ := filepath.Glob(filepath.Join(dir, "data", "*", "*.csv"))
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(fh).ReadAll()
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		rows += len(recs) - 1
	}
	if got := res.Counts.Utterances + res.Counts.DroppedTotal(); got != rows || res.Counts.Files != 6 {
		t.Errorf("kept+dropped = %d, rows = %d, files %d", got, rows, res.Counts.Files)
	}
}

func TestSharedAnnoMI(t *testing.T) {
	dir := sharedCorpus(t, "annomi")
	simple := importShared(t, "annomi", Options{}, filepath.Join(dir, "AnnoMI-simple.csv"))
	full := importShared(t, "annomi", Options{}, filepath.Join(dir, "AnnoMI-full.csv"))
	// The full table repeats utterances per annotator; once deduplicated it
	// holds exactly the simple table's utterances (transcripts in another
	// order).
	a, b := rows(simple.Utterances), rows(full.Utterances)
	sort.Strings(a)
	sort.Strings(b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("simple (%d) and full (%d) imports differ", len(simple.Utterances), len(full.Utterances))
	}
	clients := map[string]bool{}
	for _, u := range simple.Utterances {
		if strings.HasPrefix(u.Speaker, "client:") {
			clients[u.Speaker] = true
		}
	}
	if len(clients) != 133 {
		t.Errorf("%d clients, want one per transcript (133)", len(clients))
	}
	sizes := map[string]int{}
	for _, u := range simple.Utterances {
		sizes[u.ConversationID]++
	}
	for id, n := range sizes {
		if n > 20 {
			t.Errorf("session %s has %d utterances, want ≤ 20", id, n)
		}
	}
}

func TestSharedShakespeare(t *testing.T) {
	dir := sharedCorpus(t, "shakespeare-mit")
	res := importShared(t, "shakespeare-html", Options{}, dir)
	c := res.Counts
	// 45 play pages hold 37 plays (8 are stored twice).
	if c.Sources != 37 || c.Files != 45 || c.Dropped[DropDuplicateConversation] == 0 || c.Utterances < 30000 {
		t.Errorf("counts %+v", c)
	}
	hamlet := 0
	for _, u := range res.Utterances {
		if u.Source == "shakespeare/hamlet" && u.Speaker == "Hamlet" {
			hamlet++
		}
	}
	if hamlet < 300 {
		t.Errorf("Hamlet has %d speeches", hamlet)
	}
}
