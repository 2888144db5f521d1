package hub

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// ErrPickleOnly is returned (wrapped) for a repository whose only weights
// are PyTorch pickles other than a transformers state dict
// (pytorch_model.bin, or its shards), which RolePrint reads: *.pt, *.pth,
// *.ckpt or other *.bin files hold pickled Python objects of unknown
// classes, which RolePrint does not load.
var ErrPickleOnly = errors.New("the repository's only weights are PyTorch pickles other than pytorch_model.bin")

// ConversionRoute is the command that turns a model into an ONNX export
// RolePrint runs (written to DIR), for errors about models without one.
func ConversionRoute(id string) string {
	return fmt.Sprintf("pip install \"optimum[exporters]\" && optimum-cli export onnx --model %s DIR, then --set model=DIR/model.onnx "+
		"(or save_pretrained(DIR, safe_serialization=True) and push the safetensors/ONNX to a repository of your own)", id)
}

// textSideFiles are the configuration and tokenizer files of a
// transformers / sentence-transformers text encoder, fetched when present.
var textSideFiles = []string{
	"config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
	"vocab.txt", "vocab.json", "merges.txt",
	"modules.json", "sentence_bert_config.json", "config_sentence_transformers.json",
	"1_Pooling/config.json",
}

// ONNXCandidates are the ONNX exports of a text encoder, in the order
// they are preferred: the export that sentence-transformers and optimum
// place in onnx/, then one at the top.
var ONNXCandidates = []string{"onnx/model.onnx", "model.onnx"}

// TextEncoderFiles picks what a text encoder needs from a repository's
// files: its configuration and tokenizer files, and its weights: the ONNX
// export (with its external-data files) when there is one, else the
// safetensors weights (a single file, or an index and its shards), else
// the PyTorch state dict transformers writes (pytorch_model.bin, or
// pytorch_model.bin.index.json and its pytorch_model-*.bin shards; fetched
// only when there are no safetensors). A repository with only other
// PyTorch pickles is an ErrPickleOnly naming a conversion route; one with
// no weights at all is an error too.
func TextEncoderFiles(id string, files []File) ([]string, error) {
	have := map[string]bool{}
	for _, f := range files {
		have[f.Name] = true
	}
	var out []string
	for _, n := range textSideFiles {
		if have[n] {
			out = append(out, n)
		}
	}
	for _, cand := range ONNXCandidates {
		if !have[cand] {
			continue
		}
		out = append(out, cand)
		dir, base := path.Split(cand)
		for _, f := range files {
			d, b := path.Split(f.Name)
			if d == dir && strings.HasPrefix(b, base) && b != base && (strings.HasPrefix(b, base+"_data") || strings.HasPrefix(b, base+".data")) {
				out = append(out, f.Name)
			}
		}
		return out, nil
	}
	if have["model.safetensors"] {
		return append(out, "model.safetensors"), nil
	}
	if have["model.safetensors.index.json"] {
		out = append(out, "model.safetensors.index.json")
		for _, f := range files {
			if strings.HasPrefix(f.Name, "model-") && strings.HasSuffix(f.Name, ".safetensors") && !strings.Contains(f.Name, "/") {
				out = append(out, f.Name)
			}
		}
		return out, nil
	}
	if have["pytorch_model.bin"] {
		return append(out, "pytorch_model.bin"), nil
	}
	if have["pytorch_model.bin.index.json"] {
		out = append(out, "pytorch_model.bin.index.json")
		for _, f := range files {
			if strings.HasPrefix(f.Name, "pytorch_model-") && strings.HasSuffix(f.Name, ".bin") && !strings.Contains(f.Name, "/") {
				out = append(out, f.Name)
			}
		}
		return out, nil
	}
	var pickles []string
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".bin") || strings.HasSuffix(f.Name, ".pt") || strings.HasSuffix(f.Name, ".pth") || strings.HasSuffix(f.Name, ".ckpt") {
			pickles = append(pickles, f.Name)
		}
	}
	if len(pickles) > 0 {
		slices.Sort(pickles)
		return nil, fmt.Errorf("%w (%s) and no ONNX export, safetensors or pytorch_model.bin; convert it: %s", ErrPickleOnly, strings.Join(pickles, ", "), ConversionRoute(id))
	}
	return nil, fmt.Errorf("no model weights (neither %s nor model.safetensors nor pytorch_model.bin)", strings.Join(ONNXCandidates, " nor "))
}
