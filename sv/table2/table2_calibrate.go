package table2

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/sv"
)

// CalibrationOptions configure CalibrateRows.
type CalibrationOptions struct {
	// Dir holds the cached calibrations; "" is "calibration" in the user
	// cache (data/assets.CacheDir, ~/.cache/roleprint/calibration).
	Dir string
	// Fresh ignores cached calibrations and measures again (the result
	// replaces the cached one).
	Fresh bool
	// Config supplies the encoder options (batch size, cache folder,
	// settings) the rows will run with; nil uses DefaultConfig.
	Config *Config
	// Logf receives one line per row calibrated or loaded. Nil discards.
	Logf func(format string, args ...any)
}

// calibrationFile is a cached calibration: the key's parts (readable, and
// checked on load) and the measured cost.
type calibrationFile struct {
	Key      string            `json:"key"`
	Row      string            `json:"row"`
	Backend  string            `json:"backend"`
	Version  string            `json:"version"`
	Settings map[string]string `json:"settings"`
	Measured time.Time         `json:"measured"`
	Seconds  float64           `json:"calibration_s"`
	Cost     sv.RowCost        `json:"cost"`
}

// CalibrateRows returns cost models measured on this machine for the
// candidates that ask for one (sv.Row.Calibrate) and that could be
// defaults here: registered, their assets installed, env's backend set,
// and their committed estimate for env's workload (if any) within 1.5
// budgets (a row far over it is skipped without measuring). Each comes
// from the cache when a calibration of the same row, backend, program
// version and row settings is there, else from calibrateRow on corpus (the
// run's first round), then cached. A row whose calibration fails is left
// out (its committed cost applies) and the error is logged.
func CalibrateRows(ctx context.Context, candidates []sv.Row, env RowEnvironment, corpus *pairs.PairCorpus, opts CalibrationOptions) map[string]sv.RowCost {
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	out := map[string]sv.RowCost{}
	if corpus == nil {
		return out
	}
	w := referenceWorkload()
	if env.Workload != nil {
		w = *env.Workload
	}
	registeredRow := env.Registered
	if registeredRow == nil {
		registeredRow = func(name string) bool { base, _ := sv.SplitFineTuned(name); return registered(base) }
	}
	for _, r := range candidates {
		if !r.Calibrate || !registeredRow(r.Name) || r.GoMLX && env.Backend.Name == "" {
			continue
		}
		ok := true
		for _, a := range r.Assets {
			if env.Installed != nil && !env.Installed(a) {
				ok = false
			}
		}
		if e, has := estimateRow(r, backendKey(env.Backend.Name), w, nil, nil); has && DefaultRounds*e.Seconds > 1.5*BudgetFor(w) {
			ok = false
		}
		if !ok {
			continue
		}
		c, cached, err := calibrateCached(ctx, r, env.Backend.Name, corpus, opts)
		if err != nil {
			if ctx.Err() != nil {
				return out
			}
			logf("calibration of %s on %s failed (its committed cost applies): %v", r.Name, env.Backend.Name, err)
			continue
		}
		if cached {
			logf("calibration of %s on %s: cached (%s)", r.Name, env.Backend.Name, c.Source)
		} else {
			logf("calibration of %s on %s: %s", r.Name, env.Backend.Name, c.Source)
		}
		out[r.Name] = c
	}
	return out
}

// calibrationSettings are row r's settings during its calibration.
func calibrationSettings(r sv.Row, cfg *Config) map[string]string {
	c := DefaultConfig()
	if cfg != nil {
		c = *cfg
	}
	s := c.EncoderOptions(r.Name, 1).Settings
	maps.Copy(s, r.CalibrationSettings)
	return s
}

// programVersion identifies this build for calibration keys: the main
// module's version and VCS revision ("(devel) 0123abcd"), and, when the
// build carries no revision (a worktree, -buildvcs=false, a program that
// uses this module from a workspace) or comes from a modified tree, the
// hash of this module's sources when the checkout it was compiled from is
// on disk (sourceVersion), else the SHA-256 of the executable (the same
// for every `go run` of one source, different after any code change).
// The source hash matters for GoNB: every notebook cell is a new
// executable, so an executable hash would calibrate the rows again in every
// cell that plans a run, and cells of one notebook could choose different
// rows.
func programVersion() string {
	versionOnce.Do(func() {
		bi, ok := debug.ReadBuildInfo()
		if !ok {
			version = "unknown"
			return
		}
		v := bi.Main.Version
		rev, dirty := false, false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v += " " + s.Value
				rev = true
			case "vcs.modified":
				if s.Value == "true" {
					v += "+dirty"
					dirty = true
				}
			}
		}
		if !rev || dirty {
			if src := sourceVersion(); src != "" {
				version = v + " " + src
				return
			}
			if exe, err := os.Executable(); err == nil {
				if f, err := os.Open(exe); err == nil {
					h := sha256.New()
					if _, err := io.Copy(h, f); err == nil {
						v += " exe:" + hex.EncodeToString(h.Sum(nil))[:16]
					}
					f.Close()
				}
			}
		}
		version = v
	})
	return version
}

var (
	versionOnce sync.Once
	version     string
)

// modulePath is this module's path, as its go.mod declares it.
const modulePath = "github.com/roleprint/roleprint"

// sourceVersion returns "src:" and 16 hex digits of sourceHash of the
// checkout this file was compiled from, or "" when that checkout is not on
// disk (a binary built elsewhere or with -trimpath) or is not this module.
func sourceVersion() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	root := filepath.Dir(filepath.Dir(filepath.Dir(file))) // ROOT/sv/table2/this.go
	h, err := sourceHash(root)
	if err != nil {
		return ""
	}
	return "src:" + h[:16]
}

// sourceHash returns the hex SHA-256 of the Go module at root: go.mod,
// go.sum and every non-test .go file (relative path and content, in
// lexical order), skipping testdata, hidden and underscore folders,
// node_modules and nested modules. It fails when root's go.mod does not
// declare modulePath.
func sourceHash(root string) (string, error) {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	declared := ""
	for line := range strings.Lines(string(mod)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			declared = strings.Trim(strings.TrimSpace(rest), `"`)
			break
		}
	}
	if declared != modulePath {
		return "", fmt.Errorf("%s: module %q, not %s", root, declared, modulePath)
	}
	h := sha256.New()
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == root {
				return nil
			}
			if name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		goFile := strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
		if !d.Type().IsRegular() || !(goFile || rel == "go.mod" || rel == "go.sum") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func calibrationKey(row, backend, version string, settings map[string]string) string {
	h := sha256.New()
	fmt.Fprintf(h, "row=%s\nbackend=%s\nversion=%s\n", row, backend, version)
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		fmt.Fprintf(h, "%s=%s\n", k, settings[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// calibrateCached returns the cached calibration of r on backend, or
// measures and caches it.
func calibrateCached(ctx context.Context, r sv.Row, backend string, corpus *pairs.PairCorpus, opts CalibrationOptions) (sv.RowCost, bool, error) {
	dir := opts.Dir
	if dir == "" {
		cache, err := assets.CacheDir()
		if err != nil {
			return sv.RowCost{}, false, err
		}
		dir = filepath.Join(cache, "calibration")
	}
	settings := calibrationSettings(r, opts.Config)
	version := programVersion()
	key := calibrationKey(r.Name, backend, version, settings)
	path := filepath.Join(dir, r.Name+"-"+key[:16]+".json")
	if !opts.Fresh {
		if b, err := os.ReadFile(path); err == nil {
			var f calibrationFile
			if json.Unmarshal(b, &f) == nil && f.Key == key {
				return f.Cost, true, nil
			}
		}
	}
	t := time.Now()
	c, err := calibrateRow(ctx, r, backend, corpus, opts.Config)
	if err != nil {
		return sv.RowCost{}, false, err
	}
	f := calibrationFile{Key: key, Row: r.Name, Backend: backend, Version: version, Settings: settings,
		Measured: time.Now().UTC(), Seconds: time.Since(t).Seconds(), Cost: c}
	c.Source += fmt.Sprintf("; %.1f s; cached in %s", f.Seconds, path)
	f.Cost = c
	b, err := json.MarshalIndent(f, "", "  ")
	if err == nil {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			err = fsx.WriteFile(path, append(b, '\n'), 0o644)
		}
	}
	if err != nil {
		return c, false, fmt.Errorf("calibration of %s: cache: %w", r.Name, err)
	}
	return c, false, nil
}

// calibrateRow measures row r's per-unit costs on backend with a short
// run on corpus (the run's first round): it builds the encoder with the
// row's settings and CalibrationSettings, fits it on sv.CalibrationTexts
// training texts when it is a Fitter, trains it when the row is
// fine-tuned (sv.CalibrationSteps steps: PerStep from the time between the
// end of the second step and the last, the rest of the training time counted in
// Fixed; a row without sv.Row.Steps trains on all of the corpus's
// pairs and gets PerTrainPair), and embeds sv.CalibrationTexts dev/test utterances twice (the
// second pass gives PerEvalToken for the row's committed TokenLimit, the
// first pass's extra time — compiling, centring — goes to Fixed). The
// committed cost of the backend, if any, supplies TokenLimit and the
// per-unit costs calibration does not measure. Times are idle-equivalent
// seconds (meter.secondsTo). Measured on onnx on the 2-core machine: 2 s
// (transformer), 15 s (use-lite), 45 s (transformer_ft) at load 11,
// once per program version and settings (then cached).
func calibrateRow(ctx context.Context, r sv.Row, backend string, corpus *pairs.PairCorpus, cfg *Config) (sv.RowCost, error) {
	key := backendKey(backend)
	if !r.GoMLX {
		key = "" // a CPU row's costs do not depend on the backend
	}
	c := r.Costs[key]
	c.Fixed, c.PerEvalText, c.PerEvalToken, c.PerStep = 0, 0, 0, 0
	base := DefaultConfig()
	if cfg != nil {
		base = *cfg
	}
	base.Backend = backend
	opts := base.EncoderOptions(r.Name, 1)
	maps.Copy(opts.Settings, r.CalibrationSettings)
	opts.WorkDir, opts.Logf = "", nil
	m := startMeter()
	enc, err := sv.NewEncoder(r.Name, opts)
	if err != nil {
		return c, err
	}
	if cl, ok := enc.(sv.Closer); ok {
		defer cl.Close()
	}
	if f, ok := enc.(sv.Fitter); ok {
		if err := f.Fit(ctx, sv.TrainTexts(corpus, sv.CalibrationTexts)); err != nil {
			return c, fmt.Errorf("fit: %w", err)
		}
	}
	fixed := m.seconds()
	steps := 0
	if _, ft := sv.SplitFineTuned(r.Name); ft {
		tr, ok := enc.(sv.Trainable)
		if !ok {
			return c, fmt.Errorf("%s is not trainable", r.Name)
		}
		var stamps []meter
		var last int
		t := startMeter()
		err := tr.Train(ctx, corpus, func(done, total int) {
			if done > last {
				last = done
				stamps = append(stamps, startMeter())
			}
		})
		if err != nil {
			return c, fmt.Errorf("train: %w", err)
		}
		train := t.seconds()
		steps = len(stamps)
		if r.Steps == nil {
			// A trainer that does not run by steps (a pure-Go pass over
			// the pairs): its training time per training pair.
			c.PerTrainPair = train / float64(max(1, len(corpus.Train)))
			steps = 0
		} else if steps < 2 {
			return c, fmt.Errorf("train: %d steps reported, need 2 to time a step (calibration settings %v)", steps, r.CalibrationSettings)
		} else {
			// From the second step on when there are three or more: the
			// first steps after compiling run slower than the rest.
			from := min(1, steps-2)
			c.PerStep = stamps[from].secondsTo(stamps[steps-1]) / float64(steps-1-from)
			fixed += max(0, train-c.PerStep*float64(steps))
		}
	}
	texts := calibrationTexts(corpus, sv.CalibrationTexts)
	if len(texts) == 0 {
		return c, errors.New("no dev or test utterances to embed")
	}
	t := startMeter()
	if _, err := enc.Encode(ctx, texts, nil); err != nil {
		return c, fmt.Errorf("embed: %w", err)
	}
	first := t.seconds()
	t = startMeter()
	if _, err := enc.Encode(ctx, texts, nil); err != nil {
		return c, fmt.Errorf("embed: %w", err)
	}
	second := t.seconds()
	// Token slots as sv.Workload.EvalTokens counts them: words plus one,
	// cut to the row's limit.
	var slots int
	for _, s := range texts {
		n := len(strings.Fields(s)) + 1
		if c.TokenLimit > 0 {
			n = min(n, c.TokenLimit)
		}
		slots += n
	}
	c.PerEvalToken = second / float64(max(1, slots))
	c.Fixed = fixed + max(0, first-second)
	c.Source = fmt.Sprintf("calibrated on %s %s: %d steps, %d utterances, idle-equivalent seconds (load %s)", backend, time.Now().UTC().Format("2006-01-02 15:04"), steps, len(texts), loadAverage())
	return c, nil
}

// calibrationTexts returns n distinct dev/test utterances of c taken
// evenly (the texts a round embeds, so lengths match the run's).
func calibrationTexts(c *pairs.PairCorpus, n int) []string {
	seen := map[string]bool{}
	var all []string
	for _, s := range sv.EvalSets(c) {
		for _, t := range s.Texts {
			if !seen[t] {
				seen[t] = true
				all = append(all, t)
			}
		}
	}
	if len(all) <= n {
		return all
	}
	out := make([]string, n)
	for i := range out {
		out[i] = all[int(float64(i)*float64(len(all))/float64(n))]
	}
	return out
}

// meter is a point in wall and CPU time, for idle-equivalent durations.
type meter struct {
	wall time.Time
	cpu  float64
}

func startMeter() meter { return meter{wall: time.Now(), cpu: cpuSeconds()} }

// seconds returns the idle-equivalent seconds since m (see secondsTo).
func (m meter) seconds() float64 { return m.secondsTo(startMeter()) }

// secondsTo returns the idle-equivalent seconds from m to n: the wall
// time, or the CPU time this process spent (all threads) spread over the
// machine's cores when that is shorter. On a machine other jobs load, wall
// time stretches with the load while CPU time does not, so calibrations
// made under load still estimate an idle machine; on an idle machine the
// wall time is the smaller one unless the work is perfectly parallel.
// It assumes work that uses every core (ONNX Runtime's kernels): a
// single-threaded row's idle time is its CPU time, up to NumCPU times
// more, which is why the CPU baselines' costs are committed constants
// measured as CPU time.
func (m meter) secondsTo(n meter) float64 {
	wall := n.wall.Sub(m.wall).Seconds()
	if cpu := n.cpu - m.cpu; cpu > 0 {
		return min(wall, cpu/float64(runtime.NumCPU()))
	}
	return wall
}

// loadAverage returns the 1-minute load average ("2.31"), or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "unknown"
	}
	return f[0]
}
