package neural

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/sv"
)

// HFScheme is the encoder-name scheme of Hugging Face Hub models:
// "hf:ORG/NAME" or "hf:ORG/NAME@REVISION" (and "…_ft" fine-tuned) runs the
// model's ONNX export from the Hugging Face cache, where `roleprint setup
// --model ORG/NAME[@REVISION]` put it. Nothing is fetched while running.
const HFScheme = "hf"

// PaperCheckpoint is one of the seed paper's pretrained Table 2 rows and
// the checkpoint its code names.
type PaperCheckpoint struct {
	// Row is the encoder name ("roberta"); Row+"_ft" is the fine-tuned row.
	Row string
	// Model is the paper's row name ("RoBERTa").
	Model string
	// Checkpoint is the Hugging Face model the paper's repository links
	// (README, "Authorship Attribution Models"); "" when it published none.
	Checkpoint string
	// Note says what stands in the way of running it, when something does.
	Note string
	// Safetensors makes `setup --model` fetch the checkpoint's weights
	// (model.safetensors, else pytorch_model.bin; run by the GoMLX
	// implementation of its family) rather than an ONNX export the
	// repository also holds.
	Safetensors bool
}

// PaperCheckpoints are the paper's pretrained rows with the checkpoints
// its official repository (AGCSpeakerVerification, README, "Authorship
// Attribution Models") links. The rows roberta, sbert, stel and luar run
// them from the Hugging Face cache (luar in the published LUAR
// architecture, luar.go); the paper names no LISA checkpoint.
var PaperCheckpoints = []PaperCheckpoint{
	// FacebookAI/roberta-large's top-level model.onnx is a community
	// export added in 2023 (1.63 GB, the size of a fill-mask graph with
	// its LM head); its model.safetensors are the official weights the
	// paper's transformers code loaded.
	{Row: "roberta", Model: "RoBERTa", Checkpoint: "FacebookAI/roberta-large", Safetensors: true},
	{Row: "sbert", Model: "SBERT", Checkpoint: "sentence-transformers/all-mpnet-base-v2"},
	{Row: "stel", Model: "STEL", Checkpoint: "AnnaWegmann/Style-Embedding"},
	{Row: "luar", Model: "LUAR", Checkpoint: "rrivera1849/LUAR-CRUD", Safetensors: true},
	{Row: "lisa", Model: "LISA",
		Note: "the LISA model the paper ran is not published: its repository names no checkpoint (\"The style-based models, including LIWC and LISA, are not open-sourced. Therefore, researchers should contact the developers directly.\"); LISA's authors (Patel et al., 2023) release style models of their own, but which one, if any, the paper used is not said"},
}

// PaperCheckpointFor returns the paper checkpoint of row name, if any.
func PaperCheckpointFor(row string) (PaperCheckpoint, bool) {
	for _, p := range PaperCheckpoints {
		if p.Row == row {
			return p, true
		}
	}
	return PaperCheckpoint{}, false
}

// SafetensorsFiles picks a text encoder's configuration, tokenizer and
// weights from a repository's files, passing over any ONNX export
// (hub.TextEncoderFiles without the exports): model.safetensors (or its
// shards), else pytorch_model.bin (or its shards).
func SafetensorsFiles(id string, files []hub.File) ([]string, error) {
	var kept []hub.File
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".onnx") && !strings.Contains(f.Name, ".onnx_data") && !strings.Contains(f.Name, ".onnx.data") {
			kept = append(kept, f)
		}
	}
	return hub.TextEncoderFiles(id, kept)
}

// SetupFiles returns how `roleprint setup --model` picks the files of
// repository id fetched as encoder row (a paper row, or hf:ORG/NAME): LUARFiles
// for the published LUAR; for a paper row marked Safetensors, its
// safetensors weights, else its pytorch_model.bin, when it has them
// (SafetensorsFiles); else hub.TextEncoderFiles (an ONNX export first,
// then safetensors, then pytorch_model.bin).
func SetupFiles(row, id string) func([]hub.File) ([]string, error) {
	if row == LUARName || IsPublishedLUAR(id) {
		return func(f []hub.File) ([]string, error) { return LUARFiles(id, f) }
	}
	if p, ok := PaperCheckpointFor(row); ok && p.Safetensors {
		return func(f []hub.File) ([]string, error) {
			for _, x := range f {
				if hasCheckpointWeights(func(n string) bool { return n == x.Name }) {
					return SafetensorsFiles(id, f)
				}
			}
			return hub.TextEncoderFiles(id, f)
		}
	}
	return func(f []hub.File) ([]string, error) { return hub.TextEncoderFiles(id, f) }
}

// safetensorsFirst reports whether row name runs snap's weights
// (safetensors, else pytorch_model.bin) even where snap also holds an ONNX
// export: a paper row marked Safetensors whose snapshot has them.
func safetensorsFirst(name string, snap hub.Snapshot) bool {
	p, ok := PaperCheckpointFor(name)
	return ok && p.Safetensors && hasCheckpointWeights(snap.Has)
}

// ErrUnsupportedModel is returned (wrapped) for a cached model RolePrint
// cannot run: no ONNX export, or sentence-transformers modules it does
// not implement.
var ErrUnsupportedModel = errors.New("unsupported model")

// sentenceTransformersModule is one entry of modules.json.
type sentenceTransformersModule struct {
	Path string `json:"path"`
	Type string `json:"type"`
}

// ONNXFromSnapshot builds the ONNX model of a cached Hub repository: its
// ONNX export (hub.ONNXCandidates), tokenizer.json (else vocab.txt), the
// pooling of 1_Pooling/config.json (mean or CLS; mean when the repository
// has none), the truncation of sentence_bert_config.json (max_seq_length;
// else ONNXConfig's default) and a sentence-transformers pipeline of
// Transformer, Pooling and Normalize modules (the cosine ignores
// Normalize). Settings override pooling, max_len, output and dim. A repository without an
// ONNX export is an ErrNoONNXExport naming a conversion route.
func ONNXFromSnapshot(name string, snap hub.Snapshot, opts sv.EncoderOptions) (*ONNXModel, error) {
	cfg := ONNXConfig{Output: opts.String("output", ""), Pooling: opts.String("pooling", ""), Hub: snap.Ref.ID + "@" + snap.Commit}
	var err error
	if cfg.MaxLen, err = opts.Int("max_len", 0); err != nil {
		return nil, err
	}
	if cfg.Dim, err = opts.Int("dim", 0); err != nil {
		return nil, err
	}
	for _, c := range hub.ONNXCandidates {
		if snap.Has(c) {
			cfg.Path = snap.Path(c)
			break
		}
	}
	if cfg.Path == "" {
		what := "no ONNX export"
		if hasCheckpointWeights(snap.Has) {
			what = "safetensors or PyTorch weights but no ONNX export (ModelFromSnapshot loads those)"
		}
		return nil, fmt.Errorf("%s: %s (%s) has %s: %w; convert it: %s", name, snap.Ref, snap.Dir, what, ErrNoONNXExport, hub.ConversionRoute(snap.Ref.ID))
	}
	st, err := sentenceTransformersSettings(name, snap, opts)
	if err != nil {
		return nil, err
	}
	cfg.Tokenizer, cfg.Pooling = st.tokenizer, st.pooling
	if cfg.MaxLen == 0 {
		cfg.MaxLen = st.maxLen
	}
	return NewONNXModel(name, cfg)
}

// readJSON decodes a JSON file, naming it in errors.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// HFFromOptions builds the model of "hf:REF" from the Hugging Face cache
// (hub.Default: HF_HUB_CACHE, HF_HOME) with ModelFromSnapshot. A model not
// in the cache is an error naming `roleprint setup --model REF`.
func HFFromOptions(ref string, opts sv.EncoderOptions) (UtteranceModel, error) {
	name := HFScheme + ":" + ref
	r, err := hub.ParseRef(ref)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	snap, err := hub.Default().Local(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ModelFromSnapshot(name, snap, opts)
}

func init() {
	sv.RegisterEncoderScheme(HFScheme, func(ref string, opts sv.EncoderOptions) (sv.Encoder, error) {
		m, err := HFFromOptions(ref, opts)
		if err != nil {
			return nil, err
		}
		d := DefaultEncoderConfig()
		d.Name = HFScheme + ":" + ref
		cfg, err := EncoderConfigFromOptions(opts, d)
		if err != nil {
			return nil, err
		}
		return newSVEncoder(m, cfg)
	})
	// The paper's checkpoints under their Hub names sit beside the
	// paper's rows in reports, as the preset rows do.
	for _, p := range PaperCheckpoints {
		if p.Checkpoint != "" && p.Note == "" {
			sv.RegisterPaperCounterpart(HFScheme+":"+p.Checkpoint, p.Model)
			sv.RegisterPaperCounterpart(HFScheme+":"+p.Checkpoint+sv.FineTunedSuffix, p.Model+"ft")
		}
	}
}

// presetSnapshot finds a preset row's checkpoint (or the checkpoint=REF
// setting) in the Hugging Face cache. It returns the error to report when
// neither it nor the row's legacy export is there.
func presetSnapshot(row string, opts sv.EncoderOptions, legacy string) (hub.Snapshot, error) {
	p, _ := PaperCheckpointFor(row)
	ckpt := strings.TrimSpace(opts.String("checkpoint", p.Checkpoint))
	if ckpt == "" {
		return hub.Snapshot{}, fmt.Errorf("%s: %s; with a copy of your own, --set %s.checkpoint=ORG/NAME (fetched by `roleprint setup --model ORG/NAME`) or model=PATH/model.onnx",
			row, p.Note, row)
	}
	r, err := hub.ParseRef(ckpt)
	if err != nil {
		return hub.Snapshot{}, fmt.Errorf("%s: %w", row, err)
	}
	snap, err := hub.Default().Local(r)
	if err != nil && row == LUARName {
		return hub.Snapshot{}, fmt.Errorf("%s: %s is not in the Hugging Face cache; fetch it once with `roleprint setup --model %s` [%w]", row, r, row, err)
	}
	if err != nil {
		return hub.Snapshot{}, fmt.Errorf("%s: %w: %s is not in the Hugging Face cache, nor an export at %s; fetch it once with `roleprint setup --model %s` (or place model.onnx + tokenizer.json there, or set model=PATH) [%v]",
			row, ErrNoONNXExport, r, legacy, row, err)
	}
	return snap, nil
}

// Describe implements sv.Describer for encoders of ONNX models: the file,
// the Hub repository and commit it came from, the tokenizer and the
// pooling, which the runner writes into results and manifests. It is ""
// for other models.
func (e *Encoder) Describe() string {
	if d, ok := e.model.(interface{ describe() string }); ok {
		return d.describe() // the safetensors models (bertmodel.go, luar.go)
	}
	m, ok := e.model.(*ONNXModel)
	if !ok {
		return ""
	}
	s := "ONNX " + m.cfg.Path
	if m.cfg.Hub != "" {
		s = "Hugging Face Hub " + m.cfg.Hub + " (" + s + ")"
	}
	return fmt.Sprintf("%s, tokenizer %s, %s pooling, max_len %d", s, m.tok.Name(), m.cfg.Pooling, m.cfg.MaxLen)
}
