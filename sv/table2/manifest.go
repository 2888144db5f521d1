package table2

import (
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"time"
)

// Manifest records what a run was, so that its result can be cited and
// re-run: the software (Go and module versions, VCS revision), the
// machine, the seeds and resolved configuration, the inputs and the
// timings.
type Manifest struct {
	// Format ("roleprint-run") and Version identify the file.
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Command is the command line (or notebook call) that made the run.
	Command []string `json:"command,omitempty"`
	// Started and Finished bound the run; Seconds is its wall time.
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	Seconds  float64   `json:"seconds"`
	// PeakRSSMiB is the process's peak resident memory when the manifest
	// was made (getrusage's ru_maxrss; 0 where unknown). A notebook or a
	// process that ran other work first reports that work's peak too.
	PeakRSSMiB float64 `json:"peak_rss_mib"`
	// Software: the Go toolchain, this module and its version, the VCS
	// revision it was built from (when built inside a checkout), and every
	// dependency's version (with its replacement, if any).
	GoVersion     string            `json:"go_version"`
	Module        string            `json:"module"`
	ModuleVersion string            `json:"module_version"`
	VCSRevision   string            `json:"vcs_revision,omitempty"`
	VCSTime       string            `json:"vcs_time,omitempty"`
	VCSModified   bool              `json:"vcs_modified,omitempty"`
	Dependencies  map[string]string `json:"dependencies,omitempty"`
	// Machine: host name, OS, architecture, CPUs and GOMAXPROCS.
	Hostname   string `json:"hostname,omitempty"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	// Backends maps each encoder that reported one to its compute backend;
	// Backend is the GoMLX backend of the run ("" = the encoders'
	// defaults) and BackendReason why it was chosen ("ONNX Runtime found
	// at ...", "requested with --backend go"). How the default rows were
	// chosen for it is Config.Selection.
	Backend       string            `json:"backend"`
	BackendReason string            `json:"backend_reason,omitempty"`
	Backends      map[string]string `json:"backends,omitempty"`
	// Encoders maps each encoder to its description (see Describer):
	// which word vectors or model files it used.
	Encoders map[string]string `json:"encoders,omitempty"`
	// Seeds are the rounds' seeds.
	Seeds []int64 `json:"seeds"`
	// Config is the resolved experiment configuration; Pairs the resolved
	// pair-building configuration (or a description of pre-built pairs).
	Config Config `json:"config"`
	Pairs  any    `json:"pairs,omitempty"`
	// Components are the fully resolved options of every encoder with
	// registered options (Result.Components), keyed by row.
	Components map[string]any `json:"components,omitempty"`
	// Inputs lists the input files with their sizes and SHA-256.
	Inputs []InputFile `json:"inputs,omitempty"`
	// Rounds and Timings describe each round and each (round, encoder).
	Rounds  []RoundInfo     `json:"rounds"`
	Timings []EncoderTiming `json:"timings"`
	// Skipped and Notes repeat the result's.
	Skipped []SkippedEncoder `json:"skipped,omitempty"`
	Notes   []string         `json:"notes,omitempty"`
	// Outputs lists the files written beside the manifest.
	Outputs []string `json:"outputs,omitempty"`
}

// InputFile identifies one input of a run.
type InputFile struct {
	// Path is the absolute path ("embedded:NAME" for the embedded
	// corpus), Bytes its size and SHA256 its content hash.
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256,omitempty"`
	// Rows is the number of utterances read from it, when known.
	Rows int `json:"rows,omitempty"`
}

// EncoderTiming is one (round, encoder)'s timing.
type EncoderTiming struct {
	// Round, Encoder and Backend say which result; Resumed that it came
	// from a checkpoint (Timing is then the original run's).
	Round   int       `json:"round"`
	Encoder string    `json:"encoder"`
	Backend string    `json:"backend,omitempty"`
	Resumed bool      `json:"resumed,omitempty"`
	Timing  StepTimes `json:"timing"`
}

// NewManifest describes t's run with this binary's build information
// (runtime/debug.ReadBuildInfo) and this machine. The caller adds the
// command, inputs, pair configuration and outputs.
func NewManifest(t *Result) *Manifest {
	m := &Manifest{
		Format: "roleprint-run", Version: 1,
		Started: t.Started, Finished: t.Started.Add(time.Duration(t.Seconds * float64(time.Second))), Seconds: t.Seconds,
		GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), PeakRSSMiB: peakRSSMiB(),
		Backend: t.Config.Backend, Config: t.Config, Components: t.Components, Rounds: t.Rounds, Skipped: t.Skipped, Notes: t.Notes,
	}
	if t.Config.Selection != nil {
		m.BackendReason = t.Config.Selection.Backend.Reason
	}
	m.Hostname, _ = os.Hostname()
	if bi, ok := debug.ReadBuildInfo(); ok {
		m.Module = bi.Main.Path
		m.ModuleVersion = bi.Main.Version
		m.Dependencies = map[string]string{}
		for _, d := range bi.Deps {
			v := d.Version
			if d.Replace != nil {
				v += " => " + d.Replace.Path + " " + d.Replace.Version
			}
			m.Dependencies[d.Path] = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				m.VCSRevision = s.Value
			case "vcs.time":
				m.VCSTime = s.Value
			case "vcs.modified":
				m.VCSModified = s.Value == "true"
			}
		}
	}
	for r := 0; r < t.Config.Rounds; r++ {
		m.Seeds = append(m.Seeds, t.Config.Seed+int64(r))
	}
	for _, er := range t.PerRound {
		m.Timings = append(m.Timings, EncoderTiming{Round: er.Round, Encoder: er.Encoder, Backend: er.Backend, Resumed: er.Resumed, Timing: er.Timing})
		if er.About != "" {
			if m.Encoders == nil {
				m.Encoders = map[string]string{}
			}
			m.Encoders[er.Encoder] = er.About
		}
		if er.Backend != "" {
			if m.Backends == nil {
				m.Backends = map[string]string{}
			}
			m.Backends[er.Encoder] = er.Backend
		}
	}
	sort.SliceStable(m.Timings, func(i, j int) bool { return m.Timings[i].Round < m.Timings[j].Round })
	return m
}
