// Package spkemb embeds voices with a pretrained speaker-embedding model
// exported to ONNX (WeSpeaker's and 3D-Speaker's ResNet, ECAPA-TDNN and
// CAM++ exports: input [batch, frames, 80] Kaldi filter banks, output
// [batch, dim]), run by GoMLX through github.com/gomlx/onnx-gomlx on the
// pure-Go backend. The features are speech.ComputeFbank's, mean-normalised
// per clip, as those toolkits compute them. The models come from the
// Hugging Face cache (`roleprint setup --model ORG/NAME`); nothing is
// fetched while running.
//
// It is the neural speaker embedding of SpeechRole's reference-voice
// selection and of the voice-similarity (SIM) score; speech.Embed's MFCC
// statistics stay as the offline fallback.
package spkemb

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/onnx-gomlx/onnx"
	"github.com/gomlx/onnx-gomlx/onnx/parser"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/internal/panics"
	"github.com/roleprint/roleprint/speech"
)

// Scheme prefixes a Hub model in an --embedder value: "hf:ORG/NAME[@REV]".
const Scheme = "hf:"

// Config configures a speaker-embedding model.
type Config struct {
	// Fbank configures the features. Default: speech.DefaultFbankConfig
	// with a Hamming window (WeSpeaker's; 3D-Speaker's models use the
	// povey window).
	Fbank speech.FbankConfig
	// CMN subtracts each clip's mean feature vector (true; both toolkits
	// do).
	CMN bool
	// Rate is the sample rate the model expects (16000); clips at other
	// rates are resampled.
	Rate float64
	// File is the ONNX file inside a Hub repository; "" takes its only
	// .onnx file (an error when there are several).
	File string
}

// DefaultConfig returns WeSpeaker's feature settings.
func DefaultConfig() Config {
	f := speech.DefaultFbankConfig()
	f.Window = "hamming"
	return Config{Fbank: f, CMN: true, Rate: 16000}
}

// Model is a loaded speaker-embedding model. It is safe for concurrent
// use (calls run one at a time).
type Model struct {
	name    string
	cfg     Config
	om      onnx.Model
	input   string
	output  string
	backend compute.Backend
	store   *model.Store
	mu      sync.Mutex
	exec    *model.Exec
	// lengths are the clip lengths (frames) exec has compiled graphs for:
	// one graph per length, since padding would change the pooling.
	lengths map[int]bool
}

// maxGraphs bounds the compiled graphs kept at once (GoMLX's Exec refuses
// more than its cache size); past it the graphs are dropped and compiled
// again as clips need them.
const maxGraphs = 16

// Load reads an ONNX speaker-embedding model with one float input
// [batch, frames, bins] and one output [batch, dim]; name identifies it in
// messages.
func Load(name, path string, cfg Config) (*Model, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("speaker model %s: %w", name, err)
	}
	m := &Model{name: name, cfg: cfg}
	err = panics.Catch(func() error {
		var e error
		m.om, e = parser.Parse(raw)
		return e
	})
	if err != nil {
		return nil, fmt.Errorf("speaker model %s: reading %s: %w", name, path, err)
	}
	m.om = m.om.WithBaseDir(filepath.Dir(path))
	ins, inShapes := m.om.Inputs()
	outs, _ := m.om.Outputs()
	if len(ins) != 1 || len(outs) < 1 {
		return nil, fmt.Errorf("speaker model %s: %s has inputs %q and outputs %q; expected one input [batch, frames, %d] and an embedding output",
			name, path, ins, outs, cfg.Fbank.Bins)
	}
	if d := inShapes[0].Dimensions; len(d) != 3 || (d[2] > 0 && d[2] != cfg.Fbank.Bins) {
		return nil, fmt.Errorf("speaker model %s: input %s has shape %v; expected [batch, frames, %d]", name, ins[0], d, cfg.Fbank.Bins)
	}
	m.input, m.output = ins[0], outs[0]
	if m.backend, err = gobackend.New(""); err != nil {
		return nil, fmt.Errorf("speaker model %s: %w", name, err)
	}
	m.store = model.NewStore()
	if err := panics.Catch(func() error { return m.om.VariablesToScope(m.store.Scope("onnx")) }); err != nil {
		return nil, fmt.Errorf("speaker model %s: %w", name, err)
	}
	return m, nil
}

// FromHub loads "ORG/NAME[@REV]" from the Hugging Face cache. A model not
// there is an error naming `roleprint setup --model ORG/NAME`.
func FromHub(ref string, cfg Config) (*Model, error) {
	r, err := hub.ParseRef(ref)
	if err != nil {
		return nil, err
	}
	snap, err := hub.Default().Local(r)
	if err != nil {
		return nil, err
	}
	file := cfg.File
	if file == "" {
		files, err := onnxFiles(snap.Dir)
		if err != nil {
			return nil, err
		}
		switch len(files) {
		case 0:
			return nil, fmt.Errorf("speaker model %s: no .onnx file in %s; a PyTorch checkpoint needs exporting first (WeSpeaker: wespeaker/bin/export_onnx.py)", r, snap.Dir)
		case 1:
			file = files[0]
		default:
			return nil, fmt.Errorf("speaker model %s: several .onnx files (%s); name one with --embedder-file", r, strings.Join(files, ", "))
		}
	}
	return Load(Scheme+r.String(), snap.Path(file), cfg)
}

// onnxFiles lists the .onnx files of a snapshot, relative to it.
func onnxFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".onnx") {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// SpeakerFiles picks what a speaker-embedding model needs from a Hub
// repository: its ONNX files and configuration (config.yaml, config.json).
func SpeakerFiles(files []hub.File) ([]string, error) {
	var out []string
	hasONNX := false
	for _, f := range files {
		switch {
		case strings.HasSuffix(f.Name, ".onnx"):
			out, hasONNX = append(out, f.Name), true
		case f.Name == "config.yaml" || f.Name == "config.json":
			out = append(out, f.Name)
		}
	}
	if !hasONNX {
		return nil, fmt.Errorf("no .onnx file: RolePrint runs ONNX exports of speaker-embedding models (WeSpeaker: wespeaker/bin/export_onnx.py)")
	}
	return out, nil
}

// Name identifies the model ("hf:ORG/NAME").
func (m *Model) Name() string { return m.name }

// Features returns the model's input features of s: resampled to the
// model's rate, Kaldi filter banks, mean-normalised when cfg.CMN.
func (m *Model) Features(s *speech.Sound) ([][]float64, error) {
	if m.cfg.Rate > 0 && s.Rate != m.cfg.Rate {
		var err error
		if s, err = speech.Resample(s, m.cfg.Rate, speech.ResampleConfig{}); err != nil {
			return nil, err
		}
	}
	fb, err := speech.ComputeFbank(s, m.cfg.Fbank)
	if err != nil {
		return nil, err
	}
	if m.cfg.CMN {
		speech.SubtractMean(fb.Frames)
	}
	return fb.Frames, nil
}

// Embed returns the speaker embedding of s.
func (m *Model) Embed(s *speech.Sound) ([]float64, error) {
	feats, err := m.Features(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", m.name, s.Name, err)
	}
	t, bins := len(feats), len(feats[0])
	flat := make([]float32, 0, t*bins)
	for _, r := range feats {
		for _, v := range r {
			flat = append(flat, float32(v))
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.exec != nil && !m.lengths[t] && len(m.lengths) >= maxGraphs {
		m.exec.Finalize()
		m.exec = nil
	}
	if m.exec == nil {
		m.lengths = map[int]bool{}
		err := panics.Catch(func() error {
			var e error
			m.exec, e = model.NewExec(m.backend, m.store, func(scope *model.Scope, x *Node) *Node {
				out := m.om.CallGraph(m.store.Scope("onnx"), x.Graph(), map[string]*Node{m.input: x}, m.output)[0]
				return ConvertDType(Reshape(out, -1), dtypes.Float32)
			})
			return e
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
	}
	m.lengths[t] = true
	var out []*tensors.Tensor
	err = panics.Catch(func() error {
		var e error
		out, e = m.exec.Exec(tensors.FromFlatDataAndDimensions(flat, 1, t, bins))
		return e
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", m.name, s.Name, err)
	}
	defer out[0].FinalizeAll()
	v, err := tensors.CopyFlatData[float32](out[0])
	if err != nil {
		return nil, err
	}
	emb := make([]float64, len(v))
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("%s: %s: the embedding is not finite", m.name, s.Name)
		}
		emb[i] = float64(x)
	}
	return emb, nil
}

// Close releases the compiled graph and the weights.
func (m *Model) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.exec != nil {
		m.exec.Finalize()
		m.exec = nil
	}
	m.store.Finalize()
}
