package kernel

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/gonum/stat"

	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // tfidf
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

// fakeKernel stands in for the GoNB kernel on the other side of gonbui's
// named pipes: it decodes what the program sends (display data, comm
// subscriptions) and sends comm values back with the same gob encoding,
// so that gonbui's reader delivers them to comms (OnCommValueUpdate)
// exactly as in a running kernel. gonbui opens its pipes once per
// process, so there is one fakeKernel per test binary.
type fakeKernel struct {
	mu         sync.Mutex
	subscribed map[string]bool
	enc        *gob.Encoder
}

var (
	kernelOnce sync.Once
	theKernel  *fakeKernel
	kernelErr  error
)

// inKernel starts the fake kernel (once) and makes gonbui believe it runs
// in GoNB for the test.
func inKernel(t *testing.T) *fakeKernel {
	t.Helper()
	kernelOnce.Do(func() {
		dir, err := os.MkdirTemp("", "roleprint-gonb-")
		if err != nil {
			kernelErr = err
			return
		}
		toKernel, toProgram := filepath.Join(dir, "to-kernel"), filepath.Join(dir, "to-program")
		for _, p := range []string{toKernel, toProgram} {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				kernelErr = err
				return
			}
		}
		os.Setenv(protocol.GONB_PIPE_ENV, toKernel)
		os.Setenv(protocol.GONB_PIPE_BACK_ENV, toProgram)
		k := &fakeKernel{subscribed: map[string]bool{}}
		ready := make(chan error, 1)
		go func() {
			r, err := os.OpenFile(toKernel, os.O_RDONLY, 0)
			if err != nil {
				ready <- err
				return
			}
			go k.read(gob.NewDecoder(r))
			w, err := os.OpenFile(toProgram, os.O_WRONLY, 0)
			if err != nil {
				ready <- err
				return
			}
			k.enc = gob.NewEncoder(w)
			ready <- nil
		}()
		gonbui.IsNotebook = true
		if kernelErr = gonbui.Open(); kernelErr == nil {
			kernelErr = <-ready
		}
		theKernel = k
	})
	if kernelErr != nil {
		t.Fatalf("fake GoNB kernel: %v", kernelErr)
	}
	gonbui.IsNotebook = true
	t.Cleanup(func() { gonbui.IsNotebook = false })
	return theKernel
}

// read records the program's comm subscriptions.
func (k *fakeKernel) read(dec *gob.Decoder) {
	for {
		var d protocol.DisplayData
		if err := dec.Decode(&d); err != nil {
			return
		}
		var s *protocol.CommSubscription
		switch v := d.Data[protocol.MIMECommSubscribe].(type) {
		case protocol.CommSubscription:
			s = &v
		case *protocol.CommSubscription:
			s = v
		}
		if s != nil {
			k.mu.Lock()
			k.subscribed[s.Address] = !s.Unsubscribe
			k.mu.Unlock()
		}
	}
}

// send delivers a value from the front end to the program, after the
// program has subscribed to its address (as GoNB forwards only those).
func (k *fakeKernel) send(t *testing.T, address string, value any) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		k.mu.Lock()
		ok := k.subscribed[address]
		k.mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the program never subscribed to %q", address)
		}
		time.Sleep(5 * time.Millisecond)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if err := k.enc.Encode(&protocol.CommValue{Address: address, Value: value}); err != nil {
		t.Fatal(err)
	}
}

// lastUpdate waits until the latest content of the output block whose id
// starts with prefix satisfies ok, and returns it.
func lastUpdate(t *testing.T, fd *fakeDisplay, prefix string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		fd.mu.Lock()
		var last string
		found := false
		for _, id := range fd.order {
			if strings.HasPrefix(id, prefix) {
				u := fd.updates[id]
				last, found = u[len(u)-1], true
			}
		}
		fd.mu.Unlock()
		if found && ok(last) {
			return last
		}
		if time.Now().After(deadline) {
			t.Fatalf("no output %s… as expected; last: %.300q", prefix, last)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var syncedAddress = regexp.MustCompile(`newSyncedVariable\("([^"]+)"`)

// widgetAddresses are the comm addresses the widgets' script binds, in
// order, as the browser would read them.
func widgetAddresses(t *testing.T, fd *fakeDisplay) []string {
	t.Helper()
	js := lastUpdate(t, fd, "roleprint-widgets-js-", func(s string) bool { return strings.Contains(s, "<script>") })
	var out []string
	for _, m := range syncedAddress.FindAllStringSubmatch(js, -1) {
		out = append(out, m[1])
	}
	return out
}

// shortWait makes the demos give up on the front end quickly.
func shortWait(t *testing.T, d time.Duration) {
	old := frontEndWait
	frontEndWait = d
	t.Cleanup(func() { frontEndWait = old })
}

// demoBundle saves a tfidf verifier bundle of the embedded corpus with
// its domain and, with speakers, its training speakers.
func demoBundle(t *testing.T, speakers bool) string {
	t.Helper()
	ctx := context.Background()
	cfg := pairs.DefaultPairConfig()
	c, err := pairs.BuildPairs(corpus.MustDefault(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fit, _ := sv.TrainTextSources(c, 0)
	if err := tf.(sv.Fitter).Fit(ctx, fit); err != nil {
		t.Fatal(err)
	}
	cos, labels, err := verifier.DevCosines(ctx, tf, c)
	if err != nil {
		t.Fatal(err)
	}
	d, err := verifier.CorpusDomain(c)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "verifier")
	parts := []verifier.SavePart{{Row: "tfidf", Encoder: tf, Weight: 1}}
	var sp *verifier.Speakers
	if speakers {
		if sp, err = verifier.SpeakerProfiles(ctx, parts, verifier.TrainSpeakerSets(c), 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := verifier.Save(dir, verifier.SaveOptions{Name: "tfidf", FitTexts: fit, DevCosines: cos, DevLabels: labels, Domain: d,
		Manifest: map[string]any{}, Parts: parts, Speakers: sp}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDemoLines(t *testing.T) {
	got := demoLines("To be, or not to be.\r\n\n   \nThat is the question.\n")
	want := []string{"To be, or not to be.", "That is the question."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("demoLines = %q, want %q", got, want)
	}
	if demoLines(" \n\t\n") != nil {
		t.Fatal("blank text has no utterances")
	}
}

// sweepData is a test set of n pairs with tied scores.
func sweepData(n int) ([]float64, []bool) {
	rng := rand.New(rand.NewPCG(3, 5))
	scores, labels := make([]float64, n), make([]bool, n)
	for i := range scores {
		labels[i] = i%3 != 0
		s := rng.NormFloat64()
		if labels[i] {
			s += 1
		}
		scores[i] = math.Round(s*10) / 10 // ties
	}
	return scores, labels
}

// The slider's points: ACC and F1 as stats computes them, every point a
// vertex of the drawn ROC curve, the ends at (1, 1) and (0, 0), and the
// dev threshold's position giving Table 2's cell.
func TestThresholdSweep(t *testing.T) {
	scores, labels := sweepData(300)
	sw, err := newThresholdSweep(scores, labels)
	if err != nil {
		t.Fatal(err)
	}
	// onCurve: gonum divides cumulative counts, the sweep the confusion's.
	onCurve := func(fpr, tpr float64) bool {
		for k := range sw.fpr {
			if math.Abs(sw.fpr[k]-fpr) < 1e-12 && math.Abs(sw.tpr[k]-tpr) < 1e-12 {
				return true
			}
		}
		return false
	}
	for i := 0; i < sw.Len(); i++ {
		p := sw.at(i)
		acc, f1 := stats.AccuracyF1(scores, labels, p.Threshold)
		if p.ACC != acc || p.F1 != f1 {
			t.Fatalf("position %d: ACC %v F1 %v, stats.AccuracyF1 %v %v", i, p.ACC, p.F1, acc, f1)
		}
		if !onCurve(p.FPR, p.TPR) {
			t.Fatalf("position %d: (FPR %v, TPR %v) is not on the ROC curve", i, p.FPR, p.TPR)
		}
	}
	if p := sw.at(0); p.TPR != 1 || p.FPR != 1 {
		t.Errorf("lowest threshold: TPR %v FPR %v, want 1 1", p.TPR, p.FPR)
	}
	if p := sw.at(sw.Len() + 5); p.TPR != 0 || p.FPR != 0 || p.Position != sw.Len()-1 {
		t.Errorf("beyond the highest threshold: %+v, want TPR 0 FPR 0 at the last position", p)
	}
	for _, dev := range []float64{0.35, 0.4, -5, 9} {
		acc, f1 := stats.AccuracyF1(scores, labels, dev) // as a Table 2 cell computes them
		p := sw.at(sw.position(dev))
		if p.ACC != acc || p.F1 != f1 {
			t.Errorf("dev threshold %v: ACC %v F1 %v, Table 2 cell %v %v", dev, p.ACC, p.F1, acc, f1)
		}
	}
	tpr, fpr, _ := func() ([]float64, []float64, []float64) {
		y, c := append([]float64(nil), scores...), append([]bool(nil), labels...)
		stat.SortWeightedLabeled(y, c, nil)
		return stat.ROC(nil, y, c, nil)
	}()
	if len(tpr) != sw.Len() || len(fpr) != sw.Len() {
		t.Errorf("%d slider positions for %d ROC vertices", sw.Len(), len(tpr))
	}
	h, err := sw.html(5, 0.4, "tfidf on unseen-unseen-base")
	if err != nil {
		t.Fatal(err)
	}
	auc := fmt.Sprintf("<td>%.2f (any threshold)</td>", 100*stats.AUC(scores, labels))
	for _, want := range []string{"<svg", "tfidf on unseen-unseen-base", "dev-chosen", "macro-F1", auc} {
		if !strings.Contains(h, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	for _, bad := range []struct {
		s []float64
		l []bool
	}{{[]float64{1, 2}, []bool{true}}, {[]float64{1, 2}, []bool{true, true}}, {[]float64{1, math.NaN()}, []bool{true, false}}} {
		if _, err := newThresholdSweep(bad.s, bad.l); err == nil {
			t.Errorf("newThresholdSweep(%v, %v): want an error", bad.s, bad.l)
		}
	}
}

// demoTable2 is a Table 2 result with one row's pair scores on k.
func demoTable2(k pairs.TestKey, dev float64) (*table2.Result, []float64, []bool) {
	scores, labels := sweepData(200)
	// The threshold on all dev pairs differs from k's level's, which k's
	// cell used (table2.DecisionRule), so a demo marking the former fails.
	return &table2.Result{PerRound: []table2.EncoderRound{{Round: 1, Encoder: "tfidf", Threshold: stats.Float(dev - 0.2),
		Thresholds: map[string]stats.Float{string(k.Level): stats.Float(dev)},
		Cells:      map[string]table2.CellMetrics{k.String(): {Threshold: stats.Float(dev)}},
		Scores:     map[string]table2.TestScoreSet{k.String(): {Scores: scores, Positive: labels}}}}}, scores, labels
}

// Outside a notebook the demos return at once without showing anything
// (and without reading the bundle).
func TestDemosOutsideNotebook(t *testing.T) {
	nb, _, stdout, _ := testNotebook(t, false)
	start := time.Now()
	if err := nb.VerifyDemo(context.Background(), filepath.Join(t.TempDir(), "no-bundle")); err != nil {
		t.Errorf("VerifyDemo outside a notebook: %v", err)
	}
	if err := nb.ThresholdDemo(context.Background(), nil, pairs.TestKey{}, 1, "tfidf"); err != nil {
		t.Errorf("ThresholdDemo outside a notebook: %v", err)
	}
	if d := time.Since(start); d > time.Second || stdout.Len() > 0 {
		t.Errorf("outside a notebook: took %v, printed %q", d, stdout)
	}
}

// In a kernel without a browser (nbconvert) the demos show their cell,
// say in one line that no front end answered and return.
func TestDemosWithoutFrontEnd(t *testing.T) {
	inKernel(t)
	shortWait(t, 300*time.Millisecond)
	k := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}
	tb, _, _ := demoTable2(k, 0.4)
	nb, fd, stdout, _ := testNotebook(t, true)
	done := make(chan error, 1)
	go func() { done <- nb.ThresholdDemo(context.Background(), tb, k, 1, "tfidf") }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ThresholdDemo blocks without a front end")
	}
	if n := strings.Count(stdout.String(), "\n"); n != 1 || !strings.Contains(stdout.String(), "no browser front end") {
		t.Errorf("stdout %q: want one line saying no front end answered", stdout)
	}
	// The ROC at the dev-chosen threshold stays in the output.
	lastUpdate(t, fd, "roleprint-threshold-", func(s string) bool { return strings.Contains(s, "<svg") })
	if js := lastUpdate(t, fd, "roleprint-widgets-js-", func(string) bool { return true }); js != "" {
		t.Errorf("the widget script is left in the output: %.80q", js)
	}
	if err := nb.ThresholdDemo(context.Background(), tb, k, 2, "tfidf"); err == nil || !strings.Contains(err.Error(), "round 2") {
		t.Errorf("a round without the row: err %v", err)
	}
}

// The threshold slider driven through the kernel's comm messages: the
// browser's value (a string, as an input element's value is) moves the
// marked point, and the numbers are those of the sweep at that position.
func TestThresholdDemoComms(t *testing.T) {
	kern := inKernel(t)
	k := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}
	dev := 0.4
	tb, scores, labels := demoTable2(k, dev)
	sw, err := newThresholdSweep(scores, labels)
	if err != nil {
		t.Fatal(err)
	}
	title := "tfidf on " + k.String() + " (round 1)"
	nb, fd, _, _ := testNotebook(t, true)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- nb.ThresholdDemo(ctx, tb, k, 1, "tfidf") }()

	first, err := sw.html(sw.position(dev), dev, title)
	if err != nil {
		t.Fatal(err)
	}
	lastUpdate(t, fd, "roleprint-threshold-", func(s string) bool { return s == first })
	addrs := widgetAddresses(t, fd)
	if len(addrs) != 1 {
		t.Fatalf("widget addresses %v, want one slider", addrs)
	}
	for _, pos := range []int{3, sw.Len() - 1, 0} {
		want, err := sw.html(pos, dev, title)
		if err != nil {
			t.Fatal(err)
		}
		kern.send(t, addrs[0], strconv.Itoa(pos))
		got := lastUpdate(t, fd, "roleprint-threshold-", func(s string) bool { return s == want })
		p := sw.at(pos)
		acc, _ := stats.AccuracyF1(scores, labels, p.Threshold)
		if want := fmt.Sprintf("<td>%.2f</td>", 100*acc); !strings.Contains(got, want) {
			t.Errorf("position %d: the output lacks ACC %s", pos, want)
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v", err)
	}
}

// The verify widget driven through the kernel's comm messages: what the
// teacher types in each text area is judged as Verifier.Verify judges the
// same lines, the nearest training speakers of each set are those
// Verifier.NearestSets names, and each edit updates both.
func TestVerifyDemoComms(t *testing.T) {
	t.Run("speakers", func(t *testing.T) { testVerifyDemoComms(t, true) })
	t.Run("old-bundle", func(t *testing.T) { testVerifyDemoComms(t, false) })
}

func testVerifyDemoComms(t *testing.T, speakers bool) {
	kern := inKernel(t)
	ctx := context.Background()
	dir := demoBundle(t, speakers)
	v, err := verifier.Load(ctx, dir, verifier.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	utts := corpus.MustDefault()
	bySpeaker := map[string][]string{}
	for _, u := range utts {
		if len(bySpeaker[u.Speaker]) < 6 {
			bySpeaker[u.Speaker] = append(bySpeaker[u.Speaker], u.Text)
		}
	}
	var a, b []string
	for _, lines := range bySpeaker {
		if len(lines) == 6 {
			if a == nil {
				a = lines
			} else if b == nil {
				b = lines
			}
		}
	}
	if a == nil || b == nil {
		t.Fatal("the embedded corpus has no two speakers with 6 lines")
	}

	nb, fd, _, _ := testNotebook(t, true)
	dctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- nb.VerifyDemo(dctx, dir) }()
	lastUpdate(t, fd, "roleprint-verify-", func(s string) bool { return strings.Contains(s, "at least one line") })
	addrs := widgetAddresses(t, fd)
	if len(addrs) != 2 {
		t.Fatalf("widget addresses %v, want two text areas", addrs)
	}

	check := func(textA, textB string, la, lb []string) string {
		t.Helper()
		r, err := v.Verify(ctx, la, lb) // the library call `roleprint verify` makes
		if err != nil {
			t.Fatal(err)
		}
		var near [][]verifier.Neighbor
		if speakers {
			if near, err = v.NearestSets(ctx, 3, la, lb); err != nil {
				t.Fatal(err)
			}
		}
		want := verdictHTML(v, len(la), len(lb), r, near)
		got := lastUpdate(t, fd, "roleprint-verify-", func(s string) bool { return s == want })
		musts := []string{fmt.Sprintf("P(same) %.3f", r.Probability), fmt.Sprintf("%.4f", r.Score), "in domain"}
		if speakers {
			for i, side := range []string{"nearest to A", "nearest to B"} {
				if len(near[i]) != 3 {
					t.Fatalf("%s: %v, want 3 speakers", side, near[i])
				}
				musts = append(musts, side, html.EscapeString(near[i][0].String()), html.EscapeString(near[i][2].String()))
			}
		} else {
			musts = append(musts, "nearest training speakers", "not available", "records no training speakers")
		}
		for _, s := range musts {
			if !strings.Contains(got, s) {
				t.Errorf("verdict lacks %q", s)
			}
		}
		if speakers == strings.Contains(got, "not available") {
			t.Errorf("speakers %v, verdict %.300q", speakers, got)
		}
		return got
	}
	// nearestRow is the verdict's row of nearest speakers of a side.
	nearestRow := func(got, side string) string {
		i := strings.Index(got, side)
		if i < 0 {
			return ""
		}
		j := strings.Index(got[i:], "</tr>")
		return strings.TrimPrefix(got[i:i+j], side)
	}
	kern.send(t, addrs[0], strings.Join(a, "\n"))
	lastUpdate(t, fd, "roleprint-verify-", func(s string) bool { return strings.Contains(s, "Set A has 6 utterances, set B 0") })
	textB := strings.Join(b, "\r\n") + "\n\n"
	kern.send(t, addrs[1], textB)
	first := check(strings.Join(a, "\n"), textB, a, b)
	// An edit of set A (its own lines again, with a blank line): same speaker's sets.
	textA2 := strings.Join(a[:3], "\n") + "\n\n" + strings.Join(a[3:], "\n")
	kern.send(t, addrs[1], textA2)
	second := check(strings.Join(a, "\n"), textA2, a, a)
	if second == first {
		t.Error("the verdict did not change with set B")
	}
	if speakers {
		// Set B is now set A's lines: its nearest speakers are A's.
		if ra, rb := nearestRow(second, "nearest to A"), nearestRow(second, "nearest to B"); ra == "" || ra != rb || rb == nearestRow(first, "nearest to B") {
			t.Errorf("nearest to B after the edit %q, to A %q, before %q", rb, ra, nearestRow(first, "nearest to B"))
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v", err)
	}
	if js := lastUpdate(t, fd, "roleprint-widgets-js-", func(string) bool { return true }); js != "" {
		t.Errorf("the widget script is left in the output: %.80q", js)
	}
}
