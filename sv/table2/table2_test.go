package table2

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

func testConfig() Config {
	cfg := DefaultConfig()
	cfg.Encoders = []string{"test-bow", "test-noise"}
	cfg.Mixed = []string{"test-bow", "test-noise"}
	cfg.Rounds = 2
	return cfg
}

func TestRunTable2RowsAndMetrics(t *testing.T) {
	res, err := RunConfig(context.Background(), testConfig(), fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(res.Rows), 3*9; got != want {
		t.Fatalf("%d rows, want %d (bow, noise, mixed × 9 cells)", got, want)
	}
	byEnc := map[string][]Row{}
	for _, r := range res.Rows {
		byEnc[r.Encoder] = append(byEnc[r.Encoder], r)
		if r.Rounds != 2 || r.Pairs != 40 {
			t.Errorf("%s %s/%s: rounds %d pairs %d", r.Encoder, r.Exposure, r.Level, r.Rounds, r.Pairs)
		}
	}
	for _, r := range byEnc["test-bow"] {
		if r.AUCMean < 0.95 {
			t.Errorf("bag of words on marker words: AUC %v, want ≥ 0.95", r.AUCMean)
		}
		if r.ACCMean < 0.8 || r.F1Mean < 0.8 {
			t.Errorf("bag of words: ACC %v F1 %v", r.ACCMean, r.F1Mean)
		}
	}
	var noise float64
	for _, r := range byEnc["test-noise"] {
		noise += float64(r.AUCMean) / 9
	}
	if noise < 0.3 || noise > 0.7 {
		t.Errorf("random encoder mean AUC %v, want near 0.5", noise)
	}
	// Row order: encoders as configured, then mixed; levels then exposures.
	if res.Rows[0].Encoder != "test-bow" || res.Rows[0].Level != "base" || res.Rows[0].Exposure != "seen-seen" ||
		res.Rows[1].Exposure != "seen-unseen" || res.Rows[3].Level != "hard" || res.Rows[26].Encoder != MixedName {
		t.Errorf("unexpected row order: %+v ... %+v", res.Rows[0], res.Rows[26])
	}
	// Mean and std agree with the per-round cells.
	var aucs []float64
	for _, er := range res.PerRound {
		if er.Encoder == "test-noise" {
			aucs = append(aucs, float64(er.Cells["unseen-unseen-harder"].AUC))
		}
	}
	m, s := stats.MeanStd(aucs)
	r := byEnc["test-noise"][8]
	if r.Exposure != "unseen-unseen" || r.Level != "harder" || math.Abs(float64(r.AUCMean)-m) > 1e-12 || math.Abs(float64(r.AUCStd)-s) > 1e-12 {
		t.Errorf("row %+v, want AUC %v ± %v", r, m, s)
	}
}

// TestMixedEqualsConcatenatedCosine checks the score-fusion shortcut the
// runner uses against the definition: cosine of concatenated normalised
// set embeddings.
func TestMixedEqualsConcatenatedCosine(t *testing.T) {
	ctx := context.Background()
	c := fixtureCorpus(3, 4, 4, 20, 0.5)
	bow, _ := sv.NewEncoder("test-bow", sv.EncoderOptions{})
	noise, _ := sv.NewEncoder("test-noise", sv.EncoderOptions{Seed: 3})
	mixed, err := NewMixed("", bow, noise)
	if err != nil {
		t.Fatal(err)
	}
	sets := sv.EvalSets(c)
	emb, err := sv.EmbedSets(ctx, mixed, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	e1, _ := sv.EmbedSets(ctx, bow, sets, nil)
	e2, _ := sv.EmbedSets(ctx, noise, sets, nil)
	for _, p := range c.Dev {
		want := stats.Cosine(emb[p.A], emb[p.B])
		got := (stats.Cosine(e1[p.A], e1[p.B]) + stats.Cosine(e2[p.A], e2[p.B])) / 2
		if math.Abs(got-want) > 1e-6 {
			t.Fatalf("pair %s: mean of cosines %v, cosine of concatenation %v", p.ID, got, want)
		}
	}
	if mixed.Dim() != 14 {
		t.Errorf("mixed dim %d, want 14", mixed.Dim())
	}
}

func TestRunTable2Trainable(t *testing.T) {
	cfg := testConfig()
	cfg.Encoders = []string{"test-trainable", "test-trainable_ft"}
	cfg.Mixed = nil
	cfg.Rounds = 1
	res, err := RunConfig(context.Background(), cfg, fixtureSource(0.2))
	if err != nil {
		t.Fatal(err)
	}
	auc := map[string]float64{}
	for _, r := range res.Rows {
		auc[r.Encoder] += float64(r.AUCMean) / 9
	}
	// Untrained it sees only 3 of 6 speakers' marker words.
	if !(auc["test-trainable_ft"] > auc["test-trainable"]+0.05) {
		t.Errorf("fine-tuned AUC %v, untrained %v: training made no difference", auc["test-trainable_ft"], auc["test-trainable"])
	}
	if _, err := sv.NewEncoder("test-bow_ft", sv.EncoderOptions{}); err == nil || !strings.Contains(err.Error(), "cannot be fine-tuned") {
		t.Errorf("test-bow_ft: err %v, want 'cannot be fine-tuned'", err)
	}
}

func TestRunTable2SkipsMissingAssets(t *testing.T) {
	cfg := testConfig()
	cfg.Encoders = []string{"test-missing", "test-bow"}
	cfg.Mixed = []string{"test-bow", "test-missing"}
	cfg.Rounds = 1
	res, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Encoder != "test-missing" || !strings.Contains(res.Skipped[0].Reason, "roleprint setup test") {
		t.Errorf("skipped = %+v", res.Skipped)
	}
	if len(res.Rows) != 18 {
		t.Errorf("%d rows, want 18 (bow and mixed)", len(res.Rows))
	}
	cfg.SkipMissing = false
	if _, err := RunConfig(context.Background(), cfg, fixtureSource(0.3)); err == nil || !strings.Contains(err.Error(), "roleprint setup test") {
		t.Errorf("SkipMissing=false: err %v", err)
	}
}

func TestRunTable2ResumesFromCheckpoints(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig()
	cfg.Encoders = []string{"test-bow"}
	cfg.Mixed = nil
	cfg.CheckpointDir = dir
	before := bowCalls.Load()
	first, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	if bowCalls.Load() == before {
		t.Fatal("first run did not encode")
	}
	// Tear one checkpoint: it must be recomputed, the other reused.
	if err := os.WriteFile(filepath.Join(dir, "round-2", "test-bow.json"), []byte(`{"format":`), 0o644); err != nil {
		t.Fatal(err)
	}
	mid := bowCalls.Load()
	second, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	if bowCalls.Load() == mid {
		t.Error("torn checkpoint was not recomputed")
	}
	if !second.PerRound[0].Resumed || second.PerRound[1].Resumed {
		t.Errorf("resumed flags: %v %v, want true false", second.PerRound[0].Resumed, second.PerRound[1].Resumed)
	}
	for i := range first.Rows {
		a, b := first.Rows[i], second.Rows[i]
		if a.AUCMean != b.AUCMean || a.ACCMean != b.ACCMean || a.F1Mean != b.F1Mean {
			t.Fatalf("row %d differs after resume: %+v vs %+v", i, a, b)
		}
	}
	// Other data (another noise level): checkpoints do not match.
	mid = bowCalls.Load()
	if _, err := RunConfig(context.Background(), cfg, fixtureSource(0.6)); err != nil {
		t.Fatal(err)
	}
	if bowCalls.Load() == mid {
		t.Error("checkpoints of other data were reused")
	}
}

func TestRunTable2Cancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cfg := testConfig()
	cfg.Progress = func(stage string, done, total int) {
		if strings.Contains(stage, "test-noise") {
			cancel()
		}
	}
	_, err := RunConfig(ctx, cfg, fixtureSource(0.3))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestRunTable2BadCorpus(t *testing.T) {
	cfg := testConfig()
	src := func(ctx context.Context, round int, seed int64) (*pairs.PairCorpus, error) {
		c := fixtureCorpus(seed, 4, 4, 10, 0.3)
		c.Dev[0].B = "nope"
		return c, nil
	}
	if _, err := RunConfig(context.Background(), cfg, src); err == nil || !strings.Contains(err.Error(), `unknown set "nope"`) {
		t.Errorf("err = %v", err)
	}
	cfg.Encoders = []string{"no-such-encoder"}
	if _, err := RunConfig(context.Background(), cfg, fixtureSource(0.3)); err == nil || !strings.Contains(err.Error(), "unknown encoder") {
		t.Errorf("err = %v", err)
	}
}

func TestWriteReport(t *testing.T) {
	res, err := RunConfig(context.Background(), testConfig(), fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	m := NewManifest(res)
	if m.GoVersion == "" || len(m.Seeds) != 2 || m.Seeds[1] != 2 || len(m.Timings) != 6 {
		t.Errorf("manifest: go %q seeds %v timings %d", m.GoVersion, m.Seeds, len(m.Timings))
	}
	if err := res.WriteReport(dir, m); err != nil {
		t.Fatal(err)
	}
	rows, err := data.ReadParquet[Row](filepath.Join(dir, ReportParquet))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(res.Rows) || rows[5].AUCMean != res.Rows[5].AUCMean || rows[5].Encoder != res.Rows[5].Encoder {
		t.Errorf("parquet rows differ: %d vs %d", len(rows), len(res.Rows))
	}
	f, _ := os.ReadFile(filepath.Join(dir, ReportCSV))
	recs, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
	if err != nil || len(recs) != len(res.Rows)+1 || recs[0][3] != "auc_mean" {
		t.Errorf("csv: %v, %d records", err, len(recs))
	}
	var js struct {
		Rows []map[string]any `json:"rows"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, ReportJSON))
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"encoder", "exposure", "level", "auc_mean", "auc_std", "average_precision_mean", "average_precision_std", "acc_mean", "acc_std", "f1_mean", "f1_std", "rounds"} {
		if _, ok := js.Rows[0][k]; !ok {
			t.Errorf("JSON row lacks %q", k)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, ReportMarkdown))
	for _, want := range []string{"Unseen-Unseen AUC", "LUAR *paper*", "85.75 ±0.51", "| test-bow |"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err != nil {
		t.Error(err)
	}
}

func TestPaperTable2(t *testing.T) {
	rows := PaperTable2()
	if len(rows) != 33 {
		t.Fatalf("%d paper rows, want 33", len(rows))
	}
	c, ok := PaperTable2Cell("LUAR", pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base})
	if !ok || c.AUC.Mean != 85.75 || c.AUC.Std != 0.51 || c.F1.Mean != 79.57 {
		t.Errorf("LUAR unseen-unseen base = %+v", c)
	}
	c, ok = PaperTable2Cell("Mixed Features", pairs.TestKey{Exposure: pairs.SeenSeen, Level: pairs.Harder})
	if !ok || c.AUC.Mean != 78.02 || c.ACC.Std != 1.74 {
		t.Errorf("Mixed Features seen-seen harder = %+v", c)
	}
}

func TestEncoderOptionsScopedSettings(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Settings = map[string]string{"pc": "2", "test-bow.pc": "0", "test-trainable.lr": "1", "test-trainable_ft.lr": "2"}
	if o := cfg.EncoderOptions("test-bow", 5); o.Settings["pc"] != "0" || o.Seed != 5 {
		t.Errorf("test-bow: %+v", o)
	}
	if o := cfg.EncoderOptions("test-noise", 5); o.Settings["pc"] != "2" || len(o.Settings) != 1 {
		t.Errorf("test-noise: %+v", o.Settings)
	}
	if o := cfg.EncoderOptions("test-trainable_ft", 5); o.Settings["lr"] != "2" {
		t.Errorf("test-trainable_ft: %+v", o.Settings)
	}
	if o := cfg.EncoderOptions("test-trainable", 5); o.Settings["lr"] != "1" {
		t.Errorf("test-trainable: %+v", o.Settings)
	}
}
