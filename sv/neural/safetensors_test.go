package neural

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSafetensors feeds arbitrary bytes to the safetensors reader: it
// must return an error or tensors whose reads stay inside the file, never
// panic or allocate beyond the file's size.
func FuzzSafetensors(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "safetensors", "roberta", "model.safetensors")); err == nil {
		f.Add(b)
	}
	hdr := []byte(`{"a":{"dtype":"BF16","shape":[2,1],"data_offsets":[0,4]},"__metadata__":{"format":"pt"}}`)
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(hdr)))
	f.Add(append(append(b, hdr...), 1, 2, 3, 4))
	f.Add([]byte{8, 0, 0, 0, 0, 0, 0, 0, '{', '}'})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "model.safetensors")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := openSafetensors(p)
		if err != nil {
			return
		}
		defer s.Close()
		for _, n := range s.names() {
			d, shape, err := s.float32s(n, nil)
			if err != nil {
				continue
			}
			count := 1
			for _, x := range shape {
				count *= x
			}
			if len(d) != count || len(d) > len(data) {
				t.Fatalf("tensor %q: %d values for shape %v from a %d-byte file", n, len(d), shape, len(data))
			}
		}
	})
}
