package neural

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/roleprint/roleprint/internal/fsx"
)

// Checkpoints are RolePrint's own small format rather than GoMLX's
// checkpoint package, because that package writes its files in place: a
// crash during a save would leave a corrupt newest checkpoint, and resume
// would fail. Ours writes a temporary file, syncs it and renames it, so
// the newest complete checkpoint always survives.
//
// File layout: the magic line "ROLEPRINT-CKPT 1\n", a little-endian uint64
// with the length of a JSON header (CheckpointState plus the variable
// table), the header, then the raw little-endian bytes of every variable.

const (
	ckptMagic  = "ROLEPRINT-CKPT 1\n"
	ckptPrefix = "ckpt-"
	ckptSuffix = ".rpck"
)

// CheckpointState is the metadata saved with a checkpoint.
type CheckpointState struct {
	// Step is the number of optimizer steps taken.
	Step int `json:"step"`
	// TotalSteps and Seed identify the training plan; resume refuses a
	// checkpoint from another plan.
	TotalSteps int   `json:"total_steps"`
	Seed       int64 `json:"seed"`
	// Model, ModelConfig and Head describe the network.
	Model       string `json:"model"`
	ModelConfig any    `json:"model_config,omitempty"`
	Head        string `json:"head"`
	// Backend is the backend it was trained on.
	Backend string `json:"backend"`
	// LookupK is the trainer's padded unique-row count per lookup site
	// (see lookup.go): a resumed run continues with the same shapes, so it
	// ends with exactly the weights of an uninterrupted one.
	LookupK []int `json:"lookup_k,omitempty"`
}

type ckptVar struct {
	Path   string `json:"path"`
	DType  string `json:"dtype"`
	Dims   []int  `json:"dims"`
	Offset int64  `json:"offset"`
	Bytes  int64  `json:"bytes"`
}

type ckptHeader struct {
	CheckpointState
	Vars []ckptVar `json:"vars"`
}

// checkpointName is the file name of the checkpoint of step.
func checkpointName(step int) string { return fmt.Sprintf("%s%09d%s", ckptPrefix, step, ckptSuffix) }

// SaveCheckpoint writes every variable of net's store with st into dir
// (created if needed) as ckpt-<step>.rpck, atomically, and deletes all but
// the newest keep checkpoints (keep ≤ 0 keeps all).
func SaveCheckpoint(dir string, net *Network, st CheckpointState, keep int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return WriteCheckpointFile(filepath.Join(dir, checkpointName(st.Step)), net, st, func() error {
		if keep > 0 {
			return pruneCheckpoints(dir, keep)
		}
		return nil
	})
}

// WriteCheckpointFile writes one checkpoint file at path (temporary file
// plus rename); after, when not nil, runs once the file is in place.
func WriteCheckpointFile(path string, net *Network, st CheckpointState, after func() error) error {
	return writeCheckpointFile(path, net, st, after, nil)
}

// writeCheckpointFile is WriteCheckpointFile keeping only the variables
// whose path keep accepts (all when keep is nil).
func writeCheckpointFile(path string, net *Network, st CheckpointState, after func() error, keep func(string) bool) error {
	h := ckptHeader{CheckpointState: st}
	var tens []*tensors.Tensor
	var off int64
	var paths []string
	vars := map[string]*tensors.Tensor{}
	for v := range net.Store.IterVariables() {
		if !v.HasValue() || (keep != nil && !keep(v.Path())) {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return fmt.Errorf("checkpoint: variable %s: %w", v.Path(), err)
		}
		vars[v.Path()] = t
		paths = append(paths, v.Path())
	}
	sort.Strings(paths)
	for _, p := range paths {
		t := vars[p]
		n := int64(t.Shape().ByteSize())
		h.Vars = append(h.Vars, ckptVar{Path: p, DType: t.DType().String(), Dims: t.Shape().Dimensions, Offset: off, Bytes: n})
		off += n
		tens = append(tens, t)
	}
	hdr, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("checkpoint header: %w", err)
	}
	// Mode 0600, as before the move to fsx.
	err = fsx.Write(path, 0o600, func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 1<<20)
		_, _ = w.WriteString(ckptMagic)
		_ = binary.Write(w, binary.LittleEndian, uint64(len(hdr)))
		_, _ = w.Write(hdr)
		for _, t := range tens {
			var werr error
			if err := t.ConstBytes(func(b []byte) { _, werr = w.Write(b) }); err != nil {
				return err
			}
			if werr != nil {
				return werr
			}
		}
		return w.Flush()
	})
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if after != nil {
		return after()
	}
	return nil
}

// ListCheckpoints returns the checkpoint files in dir, oldest first.
func ListCheckpoints(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %w", err)
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ckptPrefix) && strings.HasSuffix(n, ckptSuffix) {
			out = append(out, filepath.Join(dir, n))
		}
	}
	sort.Strings(out) // zero-padded step numbers sort in step order
	return out, nil
}

func pruneCheckpoints(dir string, keep int) error {
	files, err := ListCheckpoints(dir)
	if err != nil {
		return err
	}
	for len(files) > keep {
		if err := os.Remove(files[0]); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		files = files[1:]
	}
	return nil
}

// LoadLatestCheckpoint loads the newest checkpoint of dir into net and
// returns its state, or (nil, nil) when dir holds none.
func LoadLatestCheckpoint(dir string, net *Network) (*CheckpointState, error) {
	files, err := ListCheckpoints(dir)
	if err != nil || len(files) == 0 {
		return nil, err
	}
	return LoadCheckpointFile(files[len(files)-1], net)
}

// ReadCheckpointState reads only the metadata of a checkpoint file.
func ReadCheckpointState(path string) (*CheckpointState, error) {
	f, _, err := fsx.OpenRegular(path, fsx.MaxModel)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	defer f.Close()
	h, _, err := readHeader(f, path)
	if err != nil {
		return nil, err
	}
	return &h.CheckpointState, nil
}

func readHeader(r io.Reader, path string) (*ckptHeader, int64, error) {
	magic := make([]byte, len(ckptMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != ckptMagic {
		return nil, 0, fmt.Errorf("checkpoint %s: not a RolePrint checkpoint (bad magic line)", path)
	}
	var n uint64
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil || n > 1<<30 {
		return nil, 0, fmt.Errorf("checkpoint %s: bad header length", path)
	}
	hdr := make([]byte, n)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, 0, fmt.Errorf("checkpoint %s: truncated header: %w", path, err)
	}
	var h ckptHeader
	if err := json.Unmarshal(hdr, &h); err != nil {
		return nil, 0, fmt.Errorf("checkpoint %s: header: %w", path, err)
	}
	return &h, int64(len(ckptMagic)) + 8 + int64(n), nil
}

// LoadCheckpointFile replaces the values of net's variables with those of
// the checkpoint at path (creating variables the store lacks, such as
// optimizer state) and returns its state. A variable whose shape differs
// from the store's is an error naming it.
func LoadCheckpointFile(path string, net *Network) (*CheckpointState, error) {
	f, _, err := fsx.OpenRegular(path, fsx.MaxModel)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	defer f.Close()
	h, _, err := readHeader(f, path)
	if err != nil {
		return nil, err
	}
	r := bufio.NewReaderSize(f, 1<<20)
	for _, cv := range h.Vars {
		dt, ok := parseDType(cv.DType)
		if !ok {
			return nil, fmt.Errorf("checkpoint %s: variable %s has unsupported dtype %s", path, cv.Path, cv.DType)
		}
		shape := shapes.Make(dt, cv.Dims...)
		if int64(shape.ByteSize()) != cv.Bytes {
			return nil, fmt.Errorf("checkpoint %s: variable %s: %d bytes for shape %s", path, cv.Path, cv.Bytes, shape)
		}
		t := tensors.FromShape(shape)
		var rerr error
		if err := t.MutableBytes(func(b []byte) { _, rerr = io.ReadFull(r, b) }); err != nil {
			return nil, err
		}
		if rerr != nil {
			return nil, fmt.Errorf("checkpoint %s: truncated at variable %s: %w", path, cv.Path, rerr)
		}
		if v := net.Store.GetVariable(cv.Path); v != nil {
			if !v.Shape().Equal(shape) {
				return nil, fmt.Errorf("checkpoint %s: variable %s has shape %s, the model has %s (different configuration?)",
					path, cv.Path, shape, v.Shape())
			}
			if err := v.SetValue(t); err != nil {
				return nil, err
			}
		} else {
			v := net.Store.VariableWithValue(cv.Path, t)
			if !strings.HasPrefix(cv.Path, ModelScope+"/") && !strings.HasPrefix(cv.Path, HeadScope+"/") {
				v.SetTrainable(false)
			}
		}
	}
	net.ResetExecs()
	return &h.CheckpointState, nil
}

func parseDType(s string) (dtypes.DType, bool) {
	for _, dt := range []dtypes.DType{dtypes.Float32, dtypes.Float64, dtypes.Float16, dtypes.BFloat16,
		dtypes.Int64, dtypes.Int32, dtypes.Int16, dtypes.Int8, dtypes.Uint8, dtypes.Bool, dtypes.Uint32, dtypes.Uint64} {
		if dt.String() == s {
			return dt, true
		}
	}
	return dtypes.InvalidDType, false
}
