package pairs_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
)

// pairDirFiles lists the files WritePairDir must produce.
func pairDirFiles() []string {
	files := []string{"manifest.json", "sets.parquet", "train.parquet", "dev.parquet"}
	for _, e := range pairs.Exposures {
		for _, l := range pairs.Levels {
			files = append(files, pairs.TestKey{Exposure: e, Level: l}.String()+".parquet")
		}
	}
	return files
}

func TestPairDirRoundTrip(t *testing.T) {
	c := mustBuild(t, pairFixture(fixtureConvs), pairs.DefaultPairConfig())
	dir := filepath.Join(t.TempDir(), "pairs")
	if err := pairs.WritePairDir(dir, c); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	for _, f := range pairDirFiles() {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s (have %v)", f, got)
		}
	}
	if len(got) != len(pairDirFiles()) {
		t.Errorf("dir holds %v, want exactly %v (no temporary files left)", got, pairDirFiles())
	}

	r, err := pairs.ReadPairDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Train, c.Train) || !reflect.DeepEqual(r.Dev, c.Dev) || !reflect.DeepEqual(r.Tests, c.Tests) || r.Seed != c.Seed {
		t.Fatal("pairs differ after a round trip")
	}
	if len(r.Sets) != len(c.Sets) {
		t.Fatalf("read %d sets, wrote %d", len(r.Sets), len(c.Sets))
	}
	for id, s := range c.Sets {
		if !reflect.DeepEqual(r.Sets[id], s) {
			t.Fatalf("set %s differs: %+v vs %+v", id, r.Sets[id], s)
		}
	}
	info := pairs.PairCorpusInfo(r)
	if info == nil || info.Config == nil || !reflect.DeepEqual(info.Config.ExcludeSpeakers, pairs.DefaultExcludedSpeakers()) ||
		info.Variant != pairs.VariantPaper || len(info.Splits) != 11 {
		t.Errorf("manifest info not read back: %+v", info)
	}
	m, err := pairs.ReadPairManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		if f.Name != "sets" && f.Positives != f.Negatives {
			t.Errorf("manifest: %s has %d positives, %d negatives", f.Name, f.Positives, f.Negatives)
		}
	}
}

func TestPairDirByteIdentical(t *testing.T) {
	utts := pairFixture(fixtureConvs)
	dirs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	for _, d := range dirs {
		if err := pairs.WritePairDir(d, mustBuild(t, utts, pairs.DefaultPairConfig())); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range pairDirFiles() {
		a, errA := os.ReadFile(filepath.Join(dirs[0], f))
		b, errB := os.ReadFile(filepath.Join(dirs[1], f))
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two builds with seed 1", f)
		}
	}
}

func TestReadPairDirErrors(t *testing.T) {
	c := mustBuild(t, pairFixture(fixtureConvs), pairs.DefaultPairConfig())
	fresh := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "pairs")
		if err := pairs.WritePairDir(dir, c); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	expectErr := func(t *testing.T, dir string, wants ...string) {
		t.Helper()
		_, err := pairs.ReadPairDir(dir)
		if err == nil {
			t.Fatalf("read %s: no error, want %q", dir, wants)
		}
		for _, w := range wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not say %q", err, w)
			}
		}
	}

	t.Run("no manifest", func(t *testing.T) {
		dir := fresh(t)
		os.Remove(filepath.Join(dir, "manifest.json"))
		expectErr(t, dir, "manifest.json", "interrupted")
	})
	t.Run("missing file", func(t *testing.T) {
		dir := fresh(t)
		os.Remove(filepath.Join(dir, "seen-unseen-hard.parquet"))
		expectErr(t, dir, "seen-unseen-hard.parquet")
	})
	t.Run("unknown set", func(t *testing.T) {
		dir := fresh(t)
		bad := append([]pairs.Pair(nil), c.Train...)
		bad[17].B = "s999999"
		if err := data.WriteParquet(filepath.Join(dir, "train.parquet"), bad); err != nil {
			t.Fatal(err)
		}
		expectErr(t, dir, "train.parquet", "row 17", "s999999", "sets.parquet")
	})
	t.Run("row count", func(t *testing.T) {
		dir := fresh(t)
		if err := data.WriteParquet(filepath.Join(dir, "dev.parquet"), c.Dev[:len(c.Dev)-2]); err != nil {
			t.Fatal(err)
		}
		expectErr(t, dir, "dev.parquet", "different builds")
	})
	t.Run("duplicate set", func(t *testing.T) {
		dir := fresh(t)
		var sets []pairs.UtteranceSet
		for _, s := range c.Sets {
			sets = append(sets, *s)
		}
		sets = append(sets, sets[3])
		if err := data.WriteParquet(filepath.Join(dir, "sets.parquet"), sets); err != nil {
			t.Fatal(err)
		}
		expectErr(t, dir, "sets.parquet", "duplicate set_id")
	})
	t.Run("wrong schema", func(t *testing.T) {
		dir := fresh(t)
		if err := data.WriteParquet(filepath.Join(dir, "train.parquet"), pairFixture(1)); err != nil {
			t.Fatal(err)
		}
		expectErr(t, dir, "train.parquet", "missing columns")
	})
	t.Run("other format", func(t *testing.T) {
		dir := fresh(t)
		js, _ := json.Marshal(map[string]any{"format": "something-else", "version": 1})
		os.WriteFile(filepath.Join(dir, "manifest.json"), js, 0o644)
		expectErr(t, dir, "format", "something-else")
	})
}

func TestWritePairDirRewriteAndBadCorpus(t *testing.T) {
	c := mustBuild(t, pairFixture(fixtureConvs), pairs.DefaultPairConfig())
	dir := filepath.Join(t.TempDir(), "pairs")
	if err := pairs.WritePairDir(dir, c); err != nil {
		t.Fatal(err)
	}
	// A corpus with a dangling reference is refused before anything is
	// touched, so the earlier complete directory stays readable.
	bad := &pairs.PairCorpus{Sets: c.Sets, Train: []pairs.Pair{{ID: "x", A: c.Train[0].A, B: "nope", Label: 0}}, Tests: c.Tests}
	if err := pairs.WritePairDir(dir, bad); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("dangling reference: got %v", err)
	}
	if _, err := pairs.ReadPairDir(dir); err != nil {
		t.Fatalf("earlier directory damaged: %v", err)
	}
	// A hand-made corpus gets a minimal manifest and reads back.
	hand := &pairs.PairCorpus{Sets: c.Sets, Train: c.Train[:4], Dev: c.Dev[:2], Tests: c.Tests, Seed: 9}
	if err := pairs.WritePairDir(dir, hand); err != nil {
		t.Fatal(err)
	}
	r, err := pairs.ReadPairDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Train) != 4 || r.Seed != 9 || pairs.PairCorpusInfo(r).Config != nil {
		t.Errorf("hand-made corpus read back as %d train pairs, seed %d, config %v", len(r.Train), r.Seed, pairs.PairCorpusInfo(r).Config)
	}
}

// TestWritePairDirFailureKeepsOldDir: when writing a new corpus over an
// earlier pair directory fails (here a folder stands where dev.parquet
// goes), the directory is left exactly as it was, still readable, with
// no staging files behind.
func TestWritePairDirFailureKeepsOldDir(t *testing.T) {
	utts := pairFixture(fixtureConvs)
	cfgA, cfgB := pairs.DefaultPairConfig(), pairs.DefaultPairConfig()
	cfgB.Seed, cfgB.MaxTrainPairs = 2, 100
	a, b := mustBuild(t, utts, cfgA), mustBuild(t, utts, cfgB)
	dir := filepath.Join(t.TempDir(), "pairs")
	if err := pairs.WritePairDir(dir, a); err != nil {
		t.Fatal(err)
	}
	// Keep the old directory readable with its dev file under another
	// name, and put a folder where the new dev.parquet must go.
	if err := os.Rename(filepath.Join(dir, "dev.parquet"), filepath.Join(dir, "dev-a.parquet")); err != nil {
		t.Fatal(err)
	}
	mpath := filepath.Join(dir, pairs.PairManifestFile)
	js, _ := os.ReadFile(mpath)
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	for _, f := range m["files"].([]any) {
		if f := f.(map[string]any); f["name"] == "dev" {
			f["path"] = "dev-a.parquet"
		}
	}
	js, _ = json.Marshal(m)
	os.WriteFile(mpath, js, 0o644)
	os.MkdirAll(filepath.Join(dir, "dev.parquet", "x"), 0o755)
	before := map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() {
			before[e.Name()], _ = os.ReadFile(filepath.Join(dir, e.Name()))
		}
	}

	err := pairs.WritePairDir(dir, b)
	if err == nil || !strings.Contains(err.Error(), "dev.parquet") {
		t.Fatalf("write over an obstacle: got %v", err)
	}
	entries, _ = os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
		if !e.IsDir() {
			if got, _ := os.ReadFile(filepath.Join(dir, e.Name())); !bytes.Equal(got, before[e.Name()]) {
				t.Errorf("%s changed by the failed write", e.Name())
			}
		}
	}
	r, err := pairs.ReadPairDir(dir)
	if err != nil {
		t.Fatalf("old directory unreadable after a failed write: %v", err)
	}
	if len(r.Train) != len(a.Train) || len(r.Dev) != len(a.Dev) {
		t.Errorf("read back %d train / %d dev pairs, want the old %d / %d", len(r.Train), len(r.Dev), len(a.Train), len(a.Dev))
	}
}

// TestPairDirLevels checks the level column of pair files: the dev pairs
// keep their levels through a round trip, a file written without the
// column (older pair folders) reads with empty levels, and an unknown
// level is refused naming the pair.
func TestPairDirLevels(t *testing.T) {
	c := mustBuild(t, pairFixture(fixtureConvs), pairs.DefaultPairConfig())
	dir := filepath.Join(t.TempDir(), "pairs")
	if err := pairs.WritePairDir(dir, c); err != nil {
		t.Fatal(err)
	}
	r, err := pairs.ReadPairDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	levels := map[pairs.Level]int{}
	for _, p := range r.Dev {
		levels[p.Level]++
	}
	if levels[pairs.Base] == 0 || levels[""] != 0 {
		t.Fatalf("dev levels after a round trip %v, want Base pairs and none without a level", levels)
	}
	type oldPair struct {
		ID    string `parquet:"pair_id"`
		A     string `parquet:"set_a,dict"`
		B     string `parquet:"set_b,dict"`
		Label int8   `parquet:"label"`
	}
	old := make([]oldPair, len(c.Dev))
	for i, p := range c.Dev {
		old[i] = oldPair{p.ID, p.A, p.B, p.Label}
	}
	if err := data.WriteParquet(filepath.Join(dir, "dev.parquet"), old); err != nil {
		t.Fatal(err)
	}
	r, err = pairs.ReadPairDir(dir)
	if err != nil {
		t.Fatalf("a dev file without levels: %v", err)
	}
	for _, p := range r.Dev {
		if p.Level != "" {
			t.Fatalf("pair %s read level %q from a file without the column", p.ID, p.Level)
		}
	}
	bad := slices.Clone(c.Dev)
	bad[3].Level = "medium"
	if err := data.WriteParquet(filepath.Join(dir, "dev.parquet"), bad); err != nil {
		t.Fatal(err)
	}
	if _, err := pairs.ReadPairDir(dir); err == nil || !strings.Contains(err.Error(), bad[3].ID) || !strings.Contains(err.Error(), `level "medium"`) {
		t.Errorf("unknown level: %v", err)
	}
}
