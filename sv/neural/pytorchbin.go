package neural

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/nlpodyssey/gopickle/pickle"
	"github.com/nlpodyssey/gopickle/pytorch"
	"github.com/nlpodyssey/gopickle/types"
)

// This file reads PyTorch checkpoints (torch.save of a state dict, as
// transformers writes pytorch_model.bin) in both of torch.save's formats:
// the zip archive of torch ≥ 1.6 (PREFIX/data.pkl and one record per
// storage) and the legacy stream (magic number, protocol, system info, the
// pickle, its storage keys, then each storage's data). The pickles are
// parsed by github.com/nlpodyssey/gopickle's unpickler, which runs no
// Python; its pytorch.Load is not used because it allocates every
// storage at the size the pickle claims before checking it against the
// file, panics on legacy storage views and tar archives, and resolves any
// global to a generic class. Here, instead:
//   - the only globals resolved are collections.OrderedDict (gopickle's
//     own), torch._utils._rebuild_tensor_v2 / _rebuild_parameter and the
//     torch.*Storage types; any other is refused, naming the file and the
//     global, before anything is built from it;
//   - the file is at most MaxPyTorchFile bytes and data.pkl at most
//     MaxPyTorchPickle;
//   - each storage's extent is checked against its record (zip) or the
//     file (legacy), and each tensor's strided extent against its storage,
//     when the file is opened; tensor data is read only by float32s, with
//     ReadAt, like the safetensors reader.

// MaxPyTorchFile caps a pytorch_model.bin (or shard) that is read: 16 GiB,
// above the largest encoder RolePrint runs in float32.
const MaxPyTorchFile = 16 << 30

// MaxPyTorchPickle caps the pickle inside a PyTorch checkpoint (names,
// shapes and storage references; a BERT-large state dict's is under 100 KB).
const MaxPyTorchPickle = 64 << 20

// ErrPyTorchGlobal is returned (wrapped) for a PyTorch pickle that refers
// to a Python global other than the tensor, storage and OrderedDict types
// a state dict is made of.
var ErrPyTorchGlobal = errors.New("the pickle refers to a Python global that is not a tensor, storage or OrderedDict type")

// ptStorageType is a torch.*Storage class: its safetensors dtype name
// and element size.
type ptStorageType struct {
	dtype string
	size  int64
}

// ptStorageTypes are the storage classes a state dict may hold.
var ptStorageTypes = map[string]ptStorageType{
	"FloatStorage": {"F32", 4}, "HalfStorage": {"F16", 2}, "BFloat16Storage": {"BF16", 2}, "DoubleStorage": {"F64", 8},
	"LongStorage": {"I64", 8}, "IntStorage": {"I32", 4}, "ShortStorage": {"I16", 2}, "CharStorage": {"I8", 1},
	"ByteStorage": {"U8", 1}, "BoolStorage": {"BOOL", 1},
}

// ptStorage is one storage of the checkpoint: its dtype, its element
// count and where its bytes start in the file.
type ptStorage struct {
	ptStorageType
	numel int64
	off   int64 // absolute offset of the data in the file; -1 until known (legacy)
}

// SetFromFile implements gopickle's pytorch.StorageInterface; the data
// is read lazily by float32s instead.
func (*ptStorage) SetFromFile(io.Reader) error { return errors.New("not used") }

// SetFromFileWithSize implements gopickle's pytorch.StorageInterface.
func (*ptStorage) SetFromFileWithSize(io.Reader, int) error { return errors.New("not used") }

// ptTensor is one tensor of the state dict: a strided view of a storage.
type ptTensor struct {
	st     *ptStorage
	offset int64 // in elements
	shape  []int
	stride []int
}

// pytorchFile is an open PyTorch checkpoint and its validated tensors.
type pytorchFile struct {
	path    string
	f       *os.File
	tensors map[string]ptTensor
}

// rebuildTensorV2 is torch._utils._rebuild_tensor_v2: gopickle's, which
// takes its six arguments, with the seventh that torch ≥ 1.13 appends
// when a tensor carries metadata (a dict of Python attributes) dropped.
type rebuildTensorV2 struct{}

// Call implements gopickle's types.Callable.
func (rebuildTensorV2) Call(args ...any) (any, error) {
	if len(args) == 7 {
		args = args[:6]
	}
	return (&pytorch.RebuildTensorV2{}).Call(args...)
}

// rebuildParameter is torch._utils._rebuild_parameter: the tensor itself.
type rebuildParameter struct{}

// Call implements gopickle's types.Callable.
func (rebuildParameter) Call(args ...any) (any, error) {
	if len(args) < 1 {
		return nil, errors.New("_rebuild_parameter without arguments")
	}
	if _, ok := args[0].(*pytorch.Tensor); !ok {
		return nil, fmt.Errorf("_rebuild_parameter of %T, not a tensor", args[0])
	}
	return args[0], nil
}

// ptFindClass resolves the globals a state dict may name, and refuses
// every other.
func ptFindClass(module, name string) (any, error) {
	switch {
	case module == "torch._utils" && name == "_rebuild_tensor_v2":
		return rebuildTensorV2{}, nil
	case module == "torch._utils" && name == "_rebuild_parameter":
		return rebuildParameter{}, nil
	case module == "torch":
		if t, ok := ptStorageTypes[name]; ok {
			return t, nil
		}
	}
	return nil, fmt.Errorf("%w: %s.%s", ErrPyTorchGlobal, module, name)
}

// openPyTorch opens a PyTorch checkpoint and checks it: the format, the
// globals, every storage's extent and every tensor's. Errors name the file.
func openPyTorch(path string) (*pytorchFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	p := &pytorchFile{path: path, f: f, tensors: map[string]ptTensor{}}
	fail := func(format string, args ...any) (*pytorchFile, error) {
		f.Close()
		return nil, fmt.Errorf("PyTorch checkpoint %s: %w", path, fmt.Errorf(format, args...))
	}
	st, err := f.Stat()
	if err != nil {
		return fail("%w", err)
	}
	size := st.Size()
	if size > MaxPyTorchFile {
		return fail("%d bytes, over the %d-byte limit", size, int64(MaxPyTorchFile))
	}
	var magic [4]byte
	if _, err := f.ReadAt(magic[:], 0); err != nil {
		return fail("reading its first bytes: %v (a file of %d bytes)", err, size)
	}
	var root any
	switch {
	case string(magic[:]) == "PK\x03\x04":
		root, err = p.loadZip(size)
	case magic[0] == 0x80: // a pickle's PROTO opcode: the legacy format
		root, err = p.loadLegacy(size)
	default:
		err = fmt.Errorf("neither torch.save's zip archive nor its legacy pickle stream (first bytes %q)", magic[:])
	}
	if err != nil {
		return fail("%w", err)
	}
	if err := p.collect(root); err != nil {
		return fail("%w", err)
	}
	return p, nil
}

// unpickle runs gopickle's unpickler over r with the allowed globals and
// persistent ids resolved by persistent; a panic inside it (malformed
// input gopickle does not check) is an error.
func unpickle(r io.Reader, persistent func(any) (any, error)) (v any, err error) {
	defer func() {
		if e := recover(); e != nil {
			v, err = nil, fmt.Errorf("malformed pickle: %v", e)
		}
	}()
	u := pickle.NewUnpickler(r)
	u.FindClass = ptFindClass
	u.PersistentLoad = persistent
	if persistent == nil {
		u.PersistentLoad = func(any) (any, error) { return nil, errors.New("unexpected persistent id") }
	}
	v, err = u.Load()
	if err != nil && !errors.Is(err, ErrPyTorchGlobal) {
		err = fmt.Errorf("malformed pickle: %w", err)
	}
	return v, err
}

// storageID reads a persistent id ("storage", class, key, location,
// numel[, view]) and returns its type, key and element count.
func storageID(id any, n int) (ptStorageType, string, int64, error) {
	t, ok := id.(*types.Tuple)
	if !ok || t.Len() < n {
		return ptStorageType{}, "", 0, fmt.Errorf("persistent id %v: expected a tuple of %d (\"storage\", type, key, location, size…)", id, n)
	}
	kind, _ := t.Get(0).(string)
	typ, typOK := t.Get(1).(ptStorageType)
	key, keyOK := t.Get(2).(string)
	numel, numelOK := t.Get(4).(int)
	if kind != "storage" || !typOK || !keyOK || !numelOK || numel < 0 {
		return ptStorageType{}, "", 0, fmt.Errorf("persistent id %v: expected (\"storage\", a torch storage type, key, location, size ≥ 0)", id)
	}
	return typ, key, int64(numel), nil
}

// loadZip reads torch ≥ 1.6's zip archive: PREFIX/data.pkl and the
// stored (uncompressed) records PREFIX/data/KEY of its storages.
func (p *pytorchFile) loadZip(size int64) (any, error) {
	zr, err := zip.NewReader(p.f, size)
	if err != nil {
		return nil, fmt.Errorf("zip archive: %w", err)
	}
	var pkl *zip.File
	records := map[string]*zip.File{}
	for _, zf := range zr.File {
		switch {
		case strings.HasSuffix(zf.Name, "/constants.pkl"):
			return nil, errors.New("a TorchScript archive (torch.jit.save), not a state dict")
		case strings.HasSuffix(zf.Name, "/data.pkl") && strings.Count(zf.Name, "/") == 1:
			if pkl != nil {
				return nil, fmt.Errorf("two pickles (%s, %s)", pkl.Name, zf.Name)
			}
			pkl = zf
		}
		records[zf.Name] = zf
	}
	if pkl == nil {
		return nil, errors.New("no PREFIX/data.pkl record: not a torch.save archive")
	}
	prefix := strings.TrimSuffix(pkl.Name, "data.pkl")
	if bo, ok := records[prefix+"byteorder"]; ok { // torch ≥ 2.1 records the writer's byte order
		rc, err := bo.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", bo.Name, err)
		}
		order, err := io.ReadAll(io.LimitReader(rc, 16))
		rc.Close()
		if err != nil || strings.TrimSpace(string(order)) != "little" {
			return nil, fmt.Errorf("%s says %q (%v); only little-endian data is read", bo.Name, order, err)
		}
	}
	if pkl.UncompressedSize64 > MaxPyTorchPickle {
		return nil, fmt.Errorf("%s is %d bytes, over the %d-byte limit", pkl.Name, pkl.UncompressedSize64, MaxPyTorchPickle)
	}
	rc, err := pkl.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkl.Name, err)
	}
	data, err := io.ReadAll(io.LimitReader(rc, MaxPyTorchPickle+1))
	rc.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkl.Name, err)
	}
	if err := checkPickleFraming(bytes.NewReader(data), int64(len(data))); err != nil {
		return nil, fmt.Errorf("%s: %w", pkl.Name, err)
	}
	storages := map[string]*ptStorage{}
	return unpickle(bytes.NewReader(data), func(id any) (any, error) {
		typ, key, numel, err := storageID(id, 5)
		if err != nil {
			return nil, err
		}
		if s, ok := storages[key]; ok {
			return s, nil
		}
		rec, ok := records[prefix+"data/"+key]
		if !ok {
			return nil, fmt.Errorf("storage %q has no record %sdata/%s", key, prefix, key)
		}
		if rec.Method != zip.Store {
			return nil, fmt.Errorf("record %s is compressed; torch.save stores its records uncompressed", rec.Name)
		}
		if numel > math.MaxInt64/typ.size || uint64(numel*typ.size) > rec.UncompressedSize64 {
			return nil, fmt.Errorf("storage %q: %d %s values need %d bytes, its record %s holds %d", key, numel, typ.dtype, numel*typ.size, rec.Name, rec.UncompressedSize64)
		}
		off, err := rec.DataOffset()
		if err != nil || off < 0 || off+numel*typ.size > size {
			return nil, fmt.Errorf("record %s lies outside the file (%v)", rec.Name, err)
		}
		s := &ptStorage{ptStorageType: typ, numel: numel, off: off}
		storages[key] = s
		return s, nil
	})
}

// countingReader is a buffered reader that counts the bytes consumed, so
// that the legacy format's storage data, which follows its pickles, can
// be located.
type countingReader struct {
	r *bufio.Reader
	n int64
}

// Read implements io.Reader.
func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// ReadByte implements io.ByteReader.
func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// legacyMagic is the legacy format's magic number (torch.serialization's
// MAGIC_NUMBER) and protocol version.
const (
	legacyMagic    = "1950a86a20f9469cfc6c"
	legacyProtocol = 1001
)

// loadLegacy reads torch.save's legacy stream: the magic number, the
// protocol version, the system info, the state dict's pickle, the list of
// its storage keys, then for each key its element count (8 bytes, little
// endian) and data.
func (p *pytorchFile) loadLegacy(size int64) (any, error) {
	cr := &countingReader{r: bufio.NewReader(io.LimitReader(p.f, size))}
	// next unpickles the pickle at the stream's position once its framing
	// is checked against the rest of the file.
	next := func(persistent func(any) (any, error)) (any, error) {
		if err := checkPickleFraming(io.NewSectionReader(p.f, cr.n, size-cr.n), size-cr.n); err != nil {
			return nil, err
		}
		return unpickle(cr, persistent)
	}
	magic, err := next(nil)
	if n, ok := magic.(*big.Int); err != nil || !ok || n.Text(16) != legacyMagic {
		return nil, fmt.Errorf("legacy format: no torch.save magic number (%v)", err)
	}
	if v, err := next(nil); err != nil || v != legacyProtocol {
		return nil, fmt.Errorf("legacy format: protocol version %v, expected %d (%v)", v, legacyProtocol, err)
	}
	if _, err := next(nil); err != nil { // system info
		return nil, fmt.Errorf("legacy format: system info: %w", err)
	}
	storages := map[string]*ptStorage{}
	root, err := next(func(id any) (any, error) {
		typ, key, numel, err := storageID(id, 6)
		if err != nil {
			return nil, err
		}
		if view := id.(*types.Tuple).Get(5); view != nil {
			return nil, fmt.Errorf("storage %q is a view of another storage, which this reader does not resolve; re-save the state dict with torch ≥ 1.6", key)
		}
		if numel > size/typ.size {
			return nil, fmt.Errorf("storage %q: %d %s values exceed the file (%d bytes)", key, numel, typ.dtype, size)
		}
		if s, ok := storages[key]; ok {
			return s, nil
		}
		s := &ptStorage{ptStorageType: typ, numel: numel, off: -1}
		storages[key] = s
		return s, nil
	})
	if err != nil {
		return nil, err
	}
	keys, err := next(nil)
	if err != nil {
		return nil, fmt.Errorf("legacy format: storage keys: %w", err)
	}
	list, ok := keys.(*types.List)
	if !ok {
		return nil, fmt.Errorf("legacy format: storage keys are %T, expected a list", keys)
	}
	for _, k := range *list {
		key, _ := k.(string)
		s, ok := storages[key]
		if !ok || s.off >= 0 {
			return nil, fmt.Errorf("legacy format: storage key %v is unknown or repeated", k)
		}
		var hdr [8]byte
		if _, err := io.ReadFull(cr, hdr[:]); err != nil {
			return nil, fmt.Errorf("legacy format: storage %q: %w", key, err)
		}
		if n := int64(leUint64(hdr[:])); n != s.numel {
			return nil, fmt.Errorf("legacy format: storage %q holds %d values, its tensor references %d", key, n, s.numel)
		}
		s.off = cr.n
		if s.off+s.numel*s.size > size {
			return nil, fmt.Errorf("storage %q: %d bytes at offset %d run past the end of the file (%d bytes)", key, s.numel*s.size, s.off, size)
		}
		if _, err := cr.r.Discard(int(s.numel * s.size)); err != nil {
			return nil, fmt.Errorf("legacy format: storage %q: %w", key, err)
		}
		cr.n += s.numel * s.size
	}
	for key, s := range storages {
		if s.off < 0 {
			return nil, fmt.Errorf("legacy format: storage %q has no data", key)
		}
	}
	return root, nil
}

// leUint64 decodes 8 little-endian bytes.
func leUint64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// collect takes the state dict's tensors from the unpickled root: a dict
// of tensor names to tensors, each checked to lie inside its storage.
func (p *pytorchFile) collect(root any) error {
	add := func(k, v any) error {
		name, ok := k.(string)
		if !ok {
			return fmt.Errorf("state dict key %v is %T, not a name", k, k)
		}
		t, ok := v.(*pytorch.Tensor)
		if !ok {
			return fmt.Errorf("state dict entry %q is %T, not a tensor", name, v)
		}
		s, ok := t.Source.(*ptStorage)
		if !ok {
			return fmt.Errorf("tensor %q: storage %T", name, t.Source)
		}
		if len(t.Size) != len(t.Stride) || t.StorageOffset < 0 {
			return fmt.Errorf("tensor %q: shape %v, strides %v, offset %d do not fit together", name, t.Size, t.Stride, t.StorageOffset)
		}
		last, count := int64(t.StorageOffset), int64(1)
		for i, d := range t.Size {
			if d < 0 || t.Stride[i] < 0 || d > math.MaxInt32 || t.Stride[i] > math.MaxInt32 {
				return fmt.Errorf("tensor %q: invalid shape %v or strides %v", name, t.Size, t.Stride)
			}
			if d == 0 {
				count = 0
				break
			}
			// Each step adds under 2⁶² to a value under the storage's
			// size, so neither sum overflows before it is refused.
			last += int64(d-1) * int64(t.Stride[i])
			count *= int64(d)
			if last >= s.numel || count > s.numel {
				break
			}
		}
		if count > 0 && last >= s.numel {
			return fmt.Errorf("tensor %q: shape %v, strides %v from offset %d reach past its storage of %d elements", name, t.Size, t.Stride, t.StorageOffset, s.numel)
		}
		if count > s.numel {
			return fmt.Errorf("tensor %q: shape %v with strides %v has more elements than its storage (%d): an expanded view; save it with .contiguous()", name, t.Size, t.Stride, s.numel)
		}
		if _, dup := p.tensors[name]; dup {
			return fmt.Errorf("tensor %q appears twice", name)
		}
		p.tensors[name] = ptTensor{st: s, offset: int64(t.StorageOffset), shape: slices.Clone(t.Size), stride: slices.Clone(t.Stride)}
		return nil
	}
	switch d := root.(type) {
	case *types.OrderedDict:
		for e := d.List.Front(); e != nil; e = e.Next() {
			entry := e.Value.(*types.OrderedDictEntry)
			if err := add(entry.Key, entry.Value); err != nil {
				return err
			}
		}
	case *types.Dict:
		for _, e := range *d {
			if err := add(e.Key, e.Value); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("the pickle holds %T, not a state dict (a dict of tensors)", root)
	}
	if len(p.tensors) == 0 {
		return errors.New("the state dict holds no tensors")
	}
	return nil
}

// filePath implements weightFile.
func (p *pytorchFile) filePath() string { return p.path }

// names implements weightFile.
func (p *pytorchFile) names() []string {
	out := make([]string, 0, len(p.tensors))
	for n := range p.tensors {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// shape implements weightFile.
func (p *pytorchFile) shape(name string) ([]int, bool) {
	t, ok := p.tensors[name]
	return t.shape, ok
}

// Close implements weightFile.
func (p *pytorchFile) Close() error { return p.f.Close() }

// float32s implements weightFile: the tensor's elements in row-major
// order, gathered through its strides from the storage's bytes.
func (p *pytorchFile) float32s(name string, want []int) ([]float32, []int, error) {
	t, ok := p.tensors[name]
	if !ok {
		return nil, nil, fmt.Errorf("PyTorch checkpoint %s: no tensor %q", p.path, name)
	}
	if want != nil && !slices.Equal(t.shape, want) {
		return nil, nil, fmt.Errorf("PyTorch checkpoint %s: tensor %q has shape %v; the configuration implies %v", p.path, name, t.shape, want)
	}
	if _, ok := stElemSize[t.st.dtype]; !ok {
		return nil, nil, fmt.Errorf("PyTorch checkpoint %s: tensor %q is %s; expected a float dtype (F32, F16, BF16 or F64)", p.path, name, t.st.dtype)
	}
	count, last := int64(1), t.offset
	for i, d := range t.shape {
		count *= int64(d)
		if d > 0 {
			last += int64(d-1) * int64(t.stride[i])
		}
	}
	if count == 0 {
		return []float32{}, slices.Clone(t.shape), nil
	}
	es := t.st.size
	buf := make([]byte, (last-t.offset+1)*es)
	if _, err := p.f.ReadAt(buf, t.st.off+t.offset*es); err != nil {
		return nil, nil, fmt.Errorf("PyTorch checkpoint %s: tensor %q: %w", p.path, name, err)
	}
	span := decodeFloats(t.st.dtype, buf)
	contiguous, step := true, int64(1)
	for i := len(t.shape) - 1; i >= 0; i-- {
		if t.shape[i] > 1 && int64(t.stride[i]) != step {
			contiguous = false
		}
		step *= int64(t.shape[i])
	}
	if contiguous {
		return span[:count], slices.Clone(t.shape), nil
	}
	out := make([]float32, count)
	idx := make([]int, len(t.shape))
	for i := range out {
		var at int64
		for a, v := range idx {
			at += int64(v) * int64(t.stride[a])
		}
		out[i] = span[at]
		for a := len(idx) - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < t.shape[a] {
				break
			}
			idx[a] = 0
		}
	}
	return out, slices.Clone(t.shape), nil
}

// pickleArgs is the argument of each pickle opcode (Python's
// pickletools): a fixed number of bytes (> 0), a length prefix of that
// many bytes (< 0: -1, -4 or -8, the data following), or newline-ended
// lines (lines; GLOBAL and INST have two). Opcodes without an argument
// are listed with 0.
var pickleArgs = func() map[byte]struct{ fixed, lines int } {
	m := map[byte]struct{ fixed, lines int }{}
	for _, op := range []byte("(.0123NRabd}el]ost)uQ\x81\x85\x86\x87\x88\x89\x8f\x90\x91\x92\x93\x94\x97\x98") {
		m[byte(op)] = struct{ fixed, lines int }{}
	}
	for op, n := range map[rune]int{'\x80': 1, 'K': 1, 'h': 1, 'q': 1, '\x82': 1, 'M': 2, '\x83': 2, 'J': 4, 'j': 4, 'r': 4, '\x84': 4, 'G': 8, '\x95': 8,
		'U': -1, 'C': -1, '\x8c': -1, '\x8a': -1, 'T': -4, 'X': -4, 'B': -4, '\x8b': -4, '\x8d': -8, '\x8e': -8, '\x96': -8} {
		m[byte(op)] = struct{ fixed, lines int }{fixed: n}
	}
	for _, op := range "ILSVFgpP" {
		m[byte(op)] = struct{ fixed, lines int }{lines: 1}
	}
	m['c'], m['i'] = struct{ fixed, lines int }{lines: 2}, struct{ fixed, lines int }{lines: 2}
	return m
}()

// checkPickleFraming walks one pickle's opcodes up to its STOP (without
// building anything) and checks that every length an opcode declares
// (strings, bytes, big integers, protocol 4 frames) fits in the n bytes
// available: gopickle allocates such lengths before reading them, so a
// forged length would otherwise allocate without bound.
func checkPickleFraming(r io.Reader, n int64) error {
	br := bufio.NewReader(io.LimitReader(r, n))
	var pos int64
	for {
		op, err := br.ReadByte()
		if err != nil {
			return fmt.Errorf("malformed pickle: no STOP opcode before byte %d", pos)
		}
		pos++
		a, ok := pickleArgs[op]
		if !ok {
			return fmt.Errorf("malformed pickle: unknown opcode 0x%02x at byte %d", op, pos-1)
		}
		if op == '.' {
			return nil
		}
		for range a.lines {
			line, err := br.ReadSlice('\n')
			for errors.Is(err, bufio.ErrBufferFull) {
				pos += int64(len(line))
				line, err = br.ReadSlice('\n')
			}
			if err != nil {
				return fmt.Errorf("malformed pickle: unterminated argument at byte %d", pos)
			}
			pos += int64(len(line))
		}
		size := a.fixed
		if size < 0 {
			size = -size
		}
		var arg [8]byte
		if _, err := io.ReadFull(br, arg[:size]); err != nil {
			return fmt.Errorf("malformed pickle: opcode 0x%02x at byte %d is cut short", op, pos-1)
		}
		pos += int64(size)
		if a.fixed >= 0 {
			if op == 0x95 { // FRAME: its length must fit; its opcodes follow
				if l := leUint64(arg[:]); l > uint64(n-pos) {
					return fmt.Errorf("malformed pickle: a frame of %d bytes at byte %d runs past the %d bytes there are", l, pos-9, n)
				}
			}
			continue
		}
		l := leUint64(arg[:])
		if op == 'T' || op == '\x8b' { // signed 4-byte lengths
			l = uint64(int64(int32(uint32(l))))
		}
		if l > uint64(n-pos) {
			return fmt.Errorf("malformed pickle: opcode 0x%02x at byte %d declares %d bytes, more than the %d left", op, pos-1-int64(size), int64(l), n-pos)
		}
		if _, err := br.Discard(int(l)); err != nil {
			return fmt.Errorf("malformed pickle: %w", err)
		}
		pos += int64(l)
	}
}
