package pairs_test

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
	"github.com/roleprint/roleprint/data/pairs"
)

// benchCorpora are every shared transcript corpus the importers read, plus
// second copies of Friends, TBBT and Shakespeare imported under other
// source names (so they are other speakers), about 300,000 utterances in
// all.
var benchCorpora = []realCorpus{
	{name: "friends-fangj-html", format: "friends-html", sub: "season"},
	{name: "tbbt", format: "tbbt", sub: "preprocessing/raw_corpus"},
	{name: "shakespeare-mit", format: "shakespeare-html"},
	{name: "friends-emorynlp", format: "friends-json", opts: importers.Options{Source: "friends-emorynlp"}},
	{name: "friends-meld", format: "meld-csv", opts: importers.Options{Source: "friends-meld"}},
	{name: "annomi", format: "annomi"},
	{name: "friends-fangj-html", format: "friends-html", sub: "season", opts: importers.Options{Source: "friends-copy"}},
	{name: "tbbt", format: "tbbt", sub: "preprocessing/raw_corpus", opts: importers.Options{Source: "tbbt-copy"}},
	{name: "shakespeare-mit", format: "shakespeare-html", opts: importers.Options{Source: "shakespeare-copy"}},
}

// BenchmarkImportAndPairs imports about 300k utterances from the shared
// corpora, builds the pairs with the default config and writes the pair
// directory: the budget is < 60 s and < 2 GiB. Run it with
//
//	go test ./data/ -run '^$' -bench ImportAndPairs -benchtime 1x
//
// It reports the utterance count, each phase's seconds, the peak resident
// memory of the process (VmHWM) and the peak Go heap.
func BenchmarkImportAndPairs(b *testing.B) {
	if _, ok := data.SharedCorporaDir(); !ok {
		b.Skip("../shared/corpora is absent")
	}
	var n int
	var tImport, tBuild, tWrite time.Duration
	peakHeap := uint64(0)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // sample the Go heap, which VmHWM alone would not show
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapAlloc)
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	for b.Loop() {
		t0 := time.Now()
		utts := importShared(b, benchCorpora)
		t1 := time.Now()
		c, err := pairs.BuildPairs(utts, pairs.DefaultPairConfig())
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if err := pairs.WritePairDir(filepath.Join(b.TempDir(), "pairs"), c); err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		n = len(utts)
		tImport, tBuild, tWrite = t1.Sub(t0), t2.Sub(t1), t3.Sub(t2)
		b.Logf("%d utterances: import %.1f s, build %.1f s, write %.1f s; %d sets, %d train pairs",
			n, tImport.Seconds(), tBuild.Seconds(), tWrite.Seconds(), len(c.Sets), len(c.Train))
	}
	close(stop)
	<-done
	b.ReportMetric(float64(n), "utterances")
	b.ReportMetric(tImport.Seconds(), "import-s")
	b.ReportMetric(tBuild.Seconds(), "build-s")
	b.ReportMetric(tWrite.Seconds(), "write-s")
	b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MiB")
	if hwm, ok := vmHWM(); ok {
		b.ReportMetric(float64(hwm)/(1<<20), "peak-RSS-MiB")
	}
}

// vmHWM returns the process's peak resident set size in bytes from
// /proc/self/status (Linux only).
func vmHWM() (int64, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}
