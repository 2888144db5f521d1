package neural

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// weightFile is one file of a checkpoint's weights: safetensors
// (safetensorsFile) or a PyTorch pickle (pytorchFile). Headers are read
// and checked when it is opened; tensor data only by float32s.
type weightFile interface {
	// filePath is the file, for errors.
	filePath() string
	// names returns the tensor names, sorted.
	names() []string
	// shape returns a tensor's shape and whether it is present.
	shape(name string) ([]int, bool)
	// float32s reads a float tensor as float32, checking its shape
	// against want (nil: any); it returns the data and the shape.
	float32s(name string, want []int) ([]float32, []int, error)
	// Close closes the file.
	Close() error
}

// checkpointWeights is a model's weights across its files: a single
// model.safetensors or the shards model.safetensors.index.json names; else
// a single pytorch_model.bin or the shards pytorch_model.bin.index.json
// names (safetensors first, as transformers' from_pretrained prefers them).
type checkpointWeights struct {
	files  []weightFile
	byName map[string]weightFile
}

// weightFormats are the single-file and index names of each weights
// format, in the order they are preferred, and how a file is opened.
var weightFormats = []struct {
	single, index string
	open          func(string) (weightFile, error)
}{
	{"model.safetensors", "model.safetensors.index.json", func(p string) (weightFile, error) { return openSafetensors(p) }},
	{"pytorch_model.bin", "pytorch_model.bin.index.json", func(p string) (weightFile, error) { return openPyTorch(p) }},
}

// hasCheckpointWeights reports whether a folder whose files has reports
// holds weights openCheckpointWeights reads.
func hasCheckpointWeights(has func(string) bool) bool {
	for _, f := range weightFormats {
		if has(f.single) || has(f.index) {
			return true
		}
	}
	return false
}

// openCheckpointWeights opens dir's weights: model.safetensors, else the
// shards of model.safetensors.index.json, else pytorch_model.bin, else the
// shards of pytorch_model.bin.index.json.
func openCheckpointWeights(dir string) (*checkpointWeights, error) {
	w := &checkpointWeights{byName: map[string]weightFile{}}
	add := func(path string, open func(string) (weightFile, error)) error {
		f, err := open(path)
		if err != nil {
			return err
		}
		w.files = append(w.files, f)
		for _, n := range f.names() {
			if prev, dup := w.byName[n]; dup {
				return fmt.Errorf("tensor %q is in both %s and %s", n, prev.filePath(), path)
			}
			w.byName[n] = f
		}
		return nil
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for _, format := range weightFormats {
		single := filepath.Join(dir, format.single)
		if exists(single) {
			if err := add(single, format.open); err != nil {
				w.Close()
				return nil, err
			}
			return w, nil
		}
		index := filepath.Join(dir, format.index)
		if !exists(index) {
			continue
		}
		var idx struct {
			WeightMap map[string]string `json:"weight_map"`
		}
		if err := readJSON(index, &idx); err != nil {
			return nil, err
		}
		shards := map[string]bool{}
		for _, f := range idx.WeightMap {
			if filepath.Base(f) != f || f == "." || f == ".." {
				return nil, fmt.Errorf("%s: shard %q is not a file name", index, f)
			}
			shards[f] = true
		}
		if len(shards) == 0 {
			return nil, fmt.Errorf("%s: weight_map names no shards", index)
		}
		names := make([]string, 0, len(shards))
		for f := range shards {
			names = append(names, f)
		}
		sort.Strings(names)
		for _, f := range names {
			if err := add(filepath.Join(dir, f), format.open); err != nil {
				w.Close()
				return nil, err
			}
		}
		return w, nil
	}
	return nil, fmt.Errorf("no weights in %s (model.safetensors, model.safetensors.index.json, pytorch_model.bin or pytorch_model.bin.index.json)", dir)
}

// has reports whether a tensor is present.
func (w *checkpointWeights) has(name string) bool { _, ok := w.byName[name]; return ok }

// shape returns a tensor's shape, or nil when absent.
func (w *checkpointWeights) shape(name string) []int {
	if f, ok := w.byName[name]; ok {
		s, _ := f.shape(name)
		return s
	}
	return nil
}

// names returns every tensor name, sorted.
func (w *checkpointWeights) names() []string {
	out := make([]string, 0, len(w.byName))
	for n := range w.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// where names the weights file(s) for errors: the file, or the files of
// a sharded checkpoint.
func (w *checkpointWeights) where() string {
	if len(w.files) == 1 {
		return w.files[0].filePath()
	}
	paths := make([]string, len(w.files))
	for i, f := range w.files {
		paths[i] = f.filePath()
	}
	return fmt.Sprintf("%v", paths)
}

// float32s reads a tensor (see weightFile.float32s).
func (w *checkpointWeights) float32s(name string, want []int) ([]float32, error) {
	f, ok := w.byName[name]
	if !ok {
		return nil, fmt.Errorf("%s: no tensor %q (shape %v expected)", w.where(), name, want)
	}
	d, _, err := f.float32s(name, want)
	return d, err
}

// Close closes every file.
func (w *checkpointWeights) Close() error {
	var first error
	for _, f := range w.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
