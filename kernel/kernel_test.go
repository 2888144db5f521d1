package kernel

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/plots"
)

// fakeDisplay records what a notebook would show.
type fakeDisplay struct {
	mu      sync.Mutex
	html    []string
	md      []string
	png     [][]byte
	svg     []string
	updates map[string][]string
	order   []string // ids in first-update order
}

func (f *fakeDisplay) HTML(h string)     { f.mu.Lock(); f.html = append(f.html, h); f.mu.Unlock() }
func (f *fakeDisplay) Markdown(m string) { f.mu.Lock(); f.md = append(f.md, m); f.mu.Unlock() }
func (f *fakeDisplay) PNG(b []byte)      { f.mu.Lock(); f.png = append(f.png, b); f.mu.Unlock() }
func (f *fakeDisplay) SVG(s string)      { f.mu.Lock(); f.svg = append(f.svg, s); f.mu.Unlock() }
func (f *fakeDisplay) UpdateHTML(id, h string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.updates == nil {
		f.updates = map[string][]string{}
	}
	if _, ok := f.updates[id]; !ok {
		f.order = append(f.order, id)
	}
	f.updates[id] = append(f.updates[id], h)
}

// testNotebook returns a notebook writing under a temp dir, with captured
// stdout/stderr, in a notebook (fake display) or not.
func testNotebook(t *testing.T, inNotebook bool) (*Notebook, *fakeDisplay, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	nb := Open("test")
	nb.Dir = t.TempDir()
	nb.Stdout, nb.Stderr = &stdout, &stderr
	nb.Display = nil
	var fd *fakeDisplay
	if inNotebook {
		fd = &fakeDisplay{}
		nb.Display = fd
	}
	return nb, fd, &stdout, &stderr
}

type row struct {
	Encoder string  `json:"encoder"`
	AUC     float64 `json:"auc_mean"`
	Skipped string  `json:"-"`
	meta
	hidden int
}

type meta struct {
	Rounds int `json:"rounds"`
}

func sampleTable(t *testing.T) *Table {
	t.Helper()
	tab, err := TableOf([]row{{"style", 0.61234567, "x", meta{3}, 1}, {"tfidf <char>", math.NaN(), "y", meta{3}, 2}, {"glove|sif", 0.8, "z", meta{1}, 3}})
	if err != nil {
		t.Fatal(err)
	}
	tab.Title = "Table 2"
	return tab
}

func TestTableOf(t *testing.T) {
	tab := sampleTable(t)
	if got, want := strings.Join(tab.Columns, ","), "encoder,auc_mean,rounds"; got != want {
		t.Fatalf("columns %q, want %q", got, want)
	}
	if got := tab.Rows[0][1]; got != "0.6123" {
		t.Errorf("float cell %q, want 4 significant digits", got)
	}
	if got := tab.Rows[1][1]; got != "–" {
		t.Errorf("NaN cell %q", got)
	}
	if got := tab.Rows[2][1]; got != "0.8" {
		t.Errorf("cell %q", got)
	}
	sel, err := TableOf([]row{{"a", 0.5, "", meta{2}, 0}}, "rounds", "encoder")
	if err != nil || strings.Join(sel.Columns, ",") != "rounds,encoder" || strings.Join(sel.Rows[0], ",") != "2,a" {
		t.Errorf("column selection: %v %+v", err, sel)
	}
	if _, err := TableOf([]row{}, "nope"); err == nil || !strings.Contains(err.Error(), "encoder, auc_mean, rounds") {
		t.Errorf("unknown column: %v", err)
	}
	if _, err := TableOf(42); err == nil {
		t.Error("TableOf(42) accepted")
	}
	if _, err := TableOf([]int{1}); err == nil {
		t.Error("TableOf([]int) accepted")
	}
}

func TestTableMarkdownHTMLCSV(t *testing.T) {
	tab := sampleTable(t)
	md := tab.Markdown()
	if !strings.Contains(md, "| encoder | auc_mean | rounds |\n|---|---:|---:|") {
		t.Errorf("markdown header/alignment wrong:\n%s", md)
	}
	if !strings.Contains(md, `glove\|sif`) {
		t.Errorf("pipe not escaped:\n%s", md)
	}
	h := tab.HTML()
	if !strings.Contains(h, "tfidf &lt;char&gt;") {
		t.Error("HTML not escaped")
	}
	if strings.Count(h, `onclick="rpSortTable(this)"`) != 3 || !strings.Contains(h, "window.rpSortTable") {
		t.Error("headers not sortable")
	}
	if strings.Count(h, `<td class="rp-num">`) != 6 {
		t.Errorf("numeric cells not marked: %d", strings.Count(h, `<td class="rp-num">`))
	}
	csv := tab.CSV()
	if !strings.HasPrefix(csv, "encoder,auc_mean,rounds\nstyle,0.6123,3\n") {
		t.Errorf("csv:\n%s", csv)
	}
}

func TestLeadingNumber(t *testing.T) {
	for s, want := range map[string]float64{"85.96 ± 1.2": 85.96, "23/95": 23, "-0.5": -0.5, "1e-3x": 1e-3, "12 %": 12} {
		if got, ok := leadingNumber(s); !ok || got != want {
			t.Errorf("%q: %v %v", s, got, ok)
		}
	}
	for _, s := range []string{"abc", "", "e5"} {
		if _, ok := leadingNumber(s); ok {
			t.Errorf("%q parsed", s)
		}
	}
}

func testFigure(t *testing.T) plots.Figure {
	t.Helper()
	f, err := plots.NewDistributions(plots.GroupSlice{{Name: "pos", Values: []float64{0.5, 0.6, 0.7, 0.65}}, {Name: "neg", Values: []float64{0.1, 0.3, 0.2, 0.35}}})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestShowOutsideNotebook(t *testing.T) {
	nb, _, stdout, stderr := testNotebook(t, false)
	if err := nb.Show(sampleTable(t)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "**Table 2**") || !strings.Contains(stdout.String(), "| style |") {
		t.Errorf("table not printed as markdown:\n%s", stdout)
	}
	stdout.Reset()
	if err := nb.Show(testFigure(t)); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"png", "svg"} {
		p := filepath.Join(nb.Dir, "figures", "figure-1."+ext)
		if _, err := os.Stat(p); err != nil {
			t.Errorf("figure not written: %v", err)
		}
		if !strings.Contains(stdout.String(), p) {
			t.Errorf("output does not say where %s went: %q", p, stdout)
		}
	}
	stdout.Reset()
	if err := nb.Show(HTML("<b>hi</b>")); err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`HTML written to (\S+)`).FindStringSubmatch(stdout.String()); m == nil {
		t.Errorf("HTML: %q", stdout)
	} else if b, err := os.ReadFile(m[1]); err != nil || !strings.Contains(string(b), "<b>hi</b>") {
		t.Errorf("HTML file: %v %q", err, b)
	}
	if err := nb.Show(errors.New("boom")); err == nil || !strings.HasPrefix(stderr.String(), "error: boom") {
		t.Errorf("error not reported: %v %q", err, stderr)
	}
}

func TestShowInNotebook(t *testing.T) {
	nb, fd, stdout, _ := testNotebook(t, true)
	if err := nb.Show(sampleTable(t)); err != nil {
		t.Fatal(err)
	}
	if len(fd.html) != 1 || !strings.Contains(fd.html[0], `<table class="rp-table">`) {
		t.Fatalf("table not shown as HTML: %v", fd.html)
	}
	if err := nb.Figure("fig-a", testFigure(t)); err != nil {
		t.Fatal(err)
	}
	if len(fd.png) != 1 {
		t.Fatalf("%d PNGs shown", len(fd.png))
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(fd.png[0]))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 525 || cfg.Height != 375 {
		t.Errorf("inline PNG %dx%d, want 525x375 (3.5x2.5 in at 150 DPI)", cfg.Width, cfg.Height)
	}
	saved, err := os.ReadFile(filepath.Join(nb.Dir, "figures", "fig-a.png"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg, _ := png.DecodeConfig(bytes.NewReader(saved)); cfg.Width != 1050 {
		t.Errorf("saved PNG width %d, want 1050 (300 DPI)", cfg.Width)
	}
	if _, err := os.Stat(filepath.Join(nb.Dir, "figures", "fig-a.svg")); err != nil {
		t.Error(err)
	}
	if !strings.Contains(stdout.String(), "figure fig-a saved") {
		t.Errorf("stdout %q", stdout)
	}
	nb.InlineSVG = true
	if err := nb.Show(testFigure(t)); err != nil {
		t.Fatal(err)
	}
	if len(fd.svg) != 1 || !strings.Contains(fd.svg[0], "<svg") {
		t.Error("SVG not shown")
	}
	if err := nb.Figure("../x", testFigure(t)); err == nil {
		t.Error("path as figure name accepted")
	}
}

// wav returns a tiny valid 16-bit mono WAV.
func wav(samples int) []byte {
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + 2*samples))
	b.WriteString("WAVEfmt ")
	w(uint32(16))
	w(uint16(1))
	w(uint16(1))
	w(uint32(16000))
	w(uint32(32000))
	w(uint16(2))
	w(uint16(16))
	b.WriteString("data")
	w(uint32(2 * samples))
	for i := range samples {
		w(int16(1000 * math.Sin(float64(i)/5)))
	}
	return b.Bytes()
}

func TestAudio(t *testing.T) {
	if _, err := NewAudio("x", []byte("not a wav")); err == nil {
		t.Error("non-WAV accepted")
	}
	a, err := NewAudio("tone", wav(1600))
	if err != nil {
		t.Fatal(err)
	}
	nb, fd, _, _ := testNotebook(t, true)
	if err := nb.Show(a); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<audio controls[^>]*src="data:audio/wav;base64,([^"]+)"`).FindStringSubmatch(fd.html[0])
	if m == nil {
		t.Fatalf("no audio player: %.200s", fd.html[0])
	}
	if got, _ := base64.StdEncoding.DecodeString(m[1]); !bytes.Equal(got, a.WAV) {
		t.Error("embedded audio differs from the WAV")
	}
	nb2, _, stdout, _ := testNotebook(t, false)
	if err := nb2.Show(a); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(nb2.Dir, "audio", "tone.wav")
	if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, a.WAV) {
		t.Errorf("audio file: %v", err)
	}
	if !strings.Contains(stdout.String(), p) {
		t.Errorf("does not say where: %q", stdout)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "v.wav"), wav(10), 0o644); err != nil {
		t.Fatal(err)
	}
	if a, err := AudioFile(filepath.Join(dir, "v.wav")); err != nil || a.Name != "v" {
		t.Errorf("AudioFile: %v %q", err, a.Name)
	}
}

func TestSideBySide(t *testing.T) {
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{
		"a": {ID: "a", Speaker: "Sheldon", Source: "tbbt", ConversationID: "s1e1", Texts: []string{"Bazinga!", "I'm not crazy, my mother had me tested."}},
		"b": {ID: "b", Speaker: "Penny", Source: "tbbt", ConversationID: "s1e2", Texts: []string{"Hi!"}},
	}}
	s, err := ComparePair(c, pairs.Pair{ID: "p1", A: "a", B: "b", Label: 0})
	if err != nil {
		t.Fatal(err)
	}
	txt := s.Text(80)
	for _, want := range []string{"pair p1: different speakers", "Sheldon · tbbt · conv. s1e1", "Penny", "1. Bazinga!", "2. I'm not crazy"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, txt)
		}
	}
	for _, line := range strings.Split(strings.TrimRight(txt, "\n"), "\n") {
		if n := len([]rune(line)); n > 80+20 {
			t.Errorf("line of %d runes: %q", n, line)
		}
	}
	h := s.HTML()
	if !strings.Contains(h, "I&#39;m not crazy") || strings.Count(h, "<ol") != 2 {
		t.Errorf("HTML: %s", h)
	}
	if _, err := ComparePair(c, pairs.Pair{ID: "p2", A: "a", B: "zz"}); err == nil {
		t.Error("missing set accepted")
	}
}

func TestProgressNotebook(t *testing.T) {
	nb, fd, _, _ := testNotebook(t, true)
	p := nb.Progress("embedding")
	p.every = time.Hour // only the first and the final report draw
	var report ProgressFunc = p.Report
	for i := 1; i <= 1000; i++ {
		report(i, 1000)
	}
	p.Done()
	if len(fd.order) != 1 {
		t.Fatalf("progress used %d output blocks, want 1 updated in place", len(fd.order))
	}
	ups := fd.updates[fd.order[0]]
	if len(ups) != 3 {
		t.Errorf("%d updates, want 3 (first, complete, done)", len(ups))
	}
	if !strings.Contains(ups[0], `<progress value="1" max="1000"`) {
		t.Errorf("first update: %s", ups[0])
	}
	if last := ups[len(ups)-1]; !strings.Contains(last, "embedding: 1000/1000 done in") {
		t.Errorf("final update: %s", last)
	}
	// A second bar gets its own block.
	q := nb.Progress("other")
	q.Report(1, 2)
	if len(fd.order) != 2 || fd.order[0] == fd.order[1] {
		t.Error("second bar shares the first one's block")
	}
}

func TestProgressLog(t *testing.T) {
	nb, _, _, stderr := testNotebook(t, false)
	p := nb.Progress("pairs")
	for i := 0; i <= 50; i++ {
		p.Report(i, 50)
	}
	p.Done()
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 12 { // 0 %, 10 %, ..., 100 %, done
		t.Fatalf("%d lines:\n%s", len(lines), stderr)
	}
	if !strings.Contains(lines[5], "[###############               ]  50% 25/50") {
		t.Errorf("middle line %q", lines[5])
	}
	if !strings.HasPrefix(lines[11], "pairs: 50/50 done in") {
		t.Errorf("last line %q", lines[11])
	}
}

func TestProgressStages(t *testing.T) {
	nb, fd, _, _ := testNotebook(t, true)
	p := nb.Progress("table 2")
	var staged func(stage string, done, total int) = p.Stage
	staged("round 1/1 tfidf embed", 1, 4)
	staged("round 1/1 liwc embed", 1, 4)
	p.Done()
	ups := fd.updates[fd.order[0]]
	if len(fd.order) != 1 || len(ups) != 3 {
		t.Fatalf("%d blocks, %d updates", len(fd.order), len(ups))
	}
	if !strings.Contains(ups[0], "table 2 · round 1/1 tfidf embed") || !strings.Contains(ups[1], "table 2 · round 1/1 liwc embed") {
		t.Errorf("stage labels: %q / %q", ups[0], ups[1])
	}
}

type result struct {
	Name  string
	Score float64
}

func TestMemo(t *testing.T) {
	nb, _, _, _ := testNotebook(t, false)
	calls := 0
	compute := func() (result, error) { calls++; return result{"a", 0.5}, nil }
	k := Key("t2", map[string]int{"rounds": 3})
	for range 2 {
		v, err := Memo(nb, k, compute)
		if err != nil || v != (result{"a", 0.5}) {
			t.Fatalf("%v %v", v, err)
		}
	}
	if calls != 1 {
		t.Errorf("computed %d times, want 1", calls)
	}
	if k2 := Key("t2", map[string]int{"rounds": 1}); k2 == k {
		t.Error("different configs, same key")
	}
	if _, err := Memo(nb, Key("t2", map[string]int{"rounds": 1}), compute); err != nil || calls != 2 {
		t.Errorf("new key did not recompute: %d", calls)
	}
	nb.Fresh = true
	if _, _ = Memo(nb, k, compute); calls != 3 {
		t.Error("Fresh did not recompute")
	}
	nb.Fresh = false
	// Corrupt cache: recompute.
	matches, _ := filepath.Glob(filepath.Join(nb.Dir, "cache", k+".json"))
	if len(matches) != 1 {
		t.Fatalf("cache file: %v", matches)
	}
	os.WriteFile(matches[0], []byte("{oops"), 0o644)
	if _, _ = Memo(nb, k, compute); calls != 4 {
		t.Error("corrupt cache not recomputed")
	}
	// NaN does not fit JSON: stored as gob and loaded back.
	nan := func() (result, error) { calls++; return result{"n", math.NaN()}, nil }
	for range 2 {
		v, err := Memo(nb, "nan", nan)
		if err != nil || !math.IsNaN(v.Score) {
			t.Fatalf("%v %v", v, err)
		}
	}
	if calls != 5 {
		t.Errorf("NaN result recomputed (%d)", calls)
	}
	// Errors are reported and not cached.
	nb2, _, _, stderr := testNotebook(t, false)
	_, err := Memo(nb2, "bad", func() (int, error) { return 0, errors.New("no data") })
	if err == nil || !strings.Contains(stderr.String(), "error: no data") {
		t.Errorf("%v %q", err, stderr)
	}
	nb.Quick = true
	if _, _ = Memo(nb, k, compute); calls != 6 {
		t.Error("quick mode shares the full-mode cache")
	}
}

func TestOpenEnv(t *testing.T) {
	t.Setenv(QuickEnv, "1")
	t.Setenv(OutEnv, "/tmp/rp-out")
	nb := Open("07-ablations")
	if !nb.Quick || nb.Dir != "/tmp/rp-out/07-ablations" {
		t.Errorf("%+v", nb)
	}
	t.Setenv(QuickEnv, "0")
	t.Setenv(OutEnv, "")
	nb = Open("x")
	if nb.Quick {
		t.Error("quick with ROLEPRINT_QUICK=0")
	}
	if want := filepath.Join(RepoRoot(), "out", "notebooks", "x"); nb.Dir != want {
		t.Errorf("dir %s, want %s", nb.Dir, want)
	}
	if !isProjectRoot(RepoRoot()) {
		t.Errorf("RepoRoot %s has no project go.mod", RepoRoot())
	}
	if nb.Display != nil {
		t.Error("display outside GoNB")
	}
}
