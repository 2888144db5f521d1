package speech

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wavSpec describes a WAV file built by buildWAV.
type wavSpec struct {
	tag        uint16 // 1 PCM, 3 float
	extensible bool
	channels   int
	rate       int
	bits       int
	frames     [][]float64 // frames[i][c] in [-1, 1)
	preChunks  []string    // extra chunk ids written before "fmt "
	oddChunk   bool        // add an odd-sized chunk (needs a pad byte)
}

// buildWAV encodes spec by hand, independently of the reader under test.
func buildWAV(t testing.TB, spec wavSpec) []byte {
	t.Helper()
	var data bytes.Buffer
	for _, fr := range spec.frames {
		for _, v := range fr {
			switch {
			case spec.tag == 3 && spec.bits == 32:
				binary.Write(&data, binary.LittleEndian, float32(v))
			case spec.tag == 3 && spec.bits == 64:
				binary.Write(&data, binary.LittleEndian, v)
			case spec.bits == 8:
				data.WriteByte(byte(int(math.Round(v*128)) + 128))
			case spec.bits == 16:
				binary.Write(&data, binary.LittleEndian, int16(math.Round(v*32768)))
			case spec.bits == 24:
				q := int32(math.Round(v * 8388608))
				data.Write([]byte{byte(q), byte(q >> 8), byte(q >> 16)})
			case spec.bits == 32:
				binary.Write(&data, binary.LittleEndian, int32(math.Round(v*2147483648)))
			}
		}
	}
	var fmtc bytes.Buffer
	tag := spec.tag
	if spec.extensible {
		tag = 0xFFFE
	}
	align := spec.channels * spec.bits / 8
	binary.Write(&fmtc, binary.LittleEndian, tag)
	binary.Write(&fmtc, binary.LittleEndian, uint16(spec.channels))
	binary.Write(&fmtc, binary.LittleEndian, uint32(spec.rate))
	binary.Write(&fmtc, binary.LittleEndian, uint32(spec.rate*align))
	binary.Write(&fmtc, binary.LittleEndian, uint16(align))
	binary.Write(&fmtc, binary.LittleEndian, uint16(spec.bits))
	if spec.extensible {
		binary.Write(&fmtc, binary.LittleEndian, uint16(22))        // cbSize
		binary.Write(&fmtc, binary.LittleEndian, uint16(spec.bits)) // valid bits
		binary.Write(&fmtc, binary.LittleEndian, uint32(0))         // channel mask
		binary.Write(&fmtc, binary.LittleEndian, spec.tag)          // sub-format GUID...
		fmtc.Write([]byte{0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71})
	}
	var body bytes.Buffer
	body.WriteString("WAVE")
	chunk := func(id string, b []byte) {
		body.WriteString(id)
		binary.Write(&body, binary.LittleEndian, uint32(len(b)))
		body.Write(b)
		if len(b)%2 == 1 {
			body.WriteByte(0)
		}
	}
	for _, id := range spec.preChunks {
		chunk(id, []byte("metadata"))
	}
	chunk("fmt ", fmtc.Bytes())
	if spec.oddChunk {
		chunk("junk", []byte("odd"))
	}
	chunk("data", data.Bytes())
	var out bytes.Buffer
	out.WriteString("RIFF")
	binary.Write(&out, binary.LittleEndian, uint32(body.Len()))
	out.Write(body.Bytes())
	return out.Bytes()
}

// testFrames returns n frames of a two-channel test signal: a 440 Hz sine
// on the left, its negative half on the right.
func testFrames(n, channels int, rate float64) [][]float64 {
	fr := make([][]float64, n)
	for i := range fr {
		v := 0.5 * math.Sin(2*math.Pi*440*float64(i)/rate)
		fr[i] = make([]float64, channels)
		for c := range fr[i] {
			fr[i][c] = v / float64(c+1)
		}
	}
	return fr
}

func TestDecodeWAVFormats(t *testing.T) {
	cases := []struct {
		name string
		spec wavSpec
		tol  float64
	}{
		{"pcm8", wavSpec{tag: 1, bits: 8}, 1.0 / 128},
		{"pcm16", wavSpec{tag: 1, bits: 16}, 1.0 / 32768},
		{"pcm24", wavSpec{tag: 1, bits: 24}, 1e-6},
		{"pcm32", wavSpec{tag: 1, bits: 32}, 1e-9},
		{"float32", wavSpec{tag: 3, bits: 32}, 1e-7},
		{"float64", wavSpec{tag: 3, bits: 64}, 1e-15},
		{"extensible-pcm24", wavSpec{tag: 1, bits: 24, extensible: true}, 1e-6},
		{"extensible-float32", wavSpec{tag: 3, bits: 32, extensible: true}, 1e-7},
		{"list-before-fmt", wavSpec{tag: 1, bits: 16, preChunks: []string{"LIST"}}, 1.0 / 32768},
		{"odd-chunk", wavSpec{tag: 1, bits: 16, oddChunk: true}, 1.0 / 32768},
	}
	for _, tc := range cases {
		for _, ch := range []int{1, 2} {
			for _, rate := range []int{8000, 22050, 44100} {
				spec := tc.spec
				spec.channels, spec.rate = ch, rate
				spec.frames = testFrames(1001, ch, float64(rate))
				b := buildWAV(t, spec)
				s, err := DecodeWAV(b, tc.name+".wav", ReadOptions{})
				if err != nil {
					t.Fatalf("%s %dch %d Hz: %v", tc.name, ch, rate, err)
				}
				if s.Rate != float64(rate) || len(s.Samples) != 1001 || s.Source.Channels != ch {
					t.Fatalf("%s: got %d samples at %g Hz, %d ch", tc.name, len(s.Samples), s.Rate, s.Source.Channels)
				}
				for i, fr := range spec.frames {
					var want float64
					for _, v := range fr {
						want += v
					}
					want /= float64(ch)
					if d := math.Abs(s.Samples[i] - want); d > tc.tol {
						t.Fatalf("%s %dch: sample %d = %g, want %g (±%g)", tc.name, ch, i, s.Samples[i], want, tc.tol)
					}
				}
			}
		}
	}
}

func TestDecodeWAVErrors(t *testing.T) {
	good := buildWAV(t, wavSpec{tag: 1, bits: 16, channels: 1, rate: 16000, frames: testFrames(100, 1, 16000)})
	patch := func(off int, b ...byte) []byte {
		c := append([]byte(nil), good...)
		copy(c[off:], b)
		return c
	}
	le32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a WAV file"},
		{"text", []byte("hello, this is not audio at all"), `starts with "hell"`},
		{"mp3", append([]byte("ID3\x03\x00\x00\x00"), make([]byte, 20)...), "not a WAV file"},
		{"rifx", patch(0, 'R', 'I', 'F', 'X'), "RIFX"},
		{"avi", patch(8, 'A', 'V', 'I', ' '), `type "AVI "`},
		{"truncated-data", good[:len(good)-50], "truncated: data chunk"},
		{"truncated-header", good[:40], "truncated"},
		{"no-data", good[:36], "no data chunk"},
		{"adpcm", patch(20, 2, 0), "MS ADPCM"},
		{"12-bit", patch(34, 12, 0), "unsupported PCM sample size 12"},
		{"zero-channels", patch(22, 0, 0), "0 channels"},
		{"bad-align", patch(32, 7, 0), "block align 7"},
		{"zero-rate", patch(24, 0, 0, 0, 0), "sample rate 0"},
		{"huge-fmt", patch(16, le32(0xFFFFFFF0)...), "truncated"},
		{"odd-data", patch(40, le32(199)...), "not a whole number"},
	}
	for _, tc := range cases {
		_, err := DecodeWAV(tc.data, "clip.wav", ReadOptions{})
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "clip.wav: ") {
			t.Errorf("%s: error %q, want the file name and %q", tc.name, err, tc.want)
		}
	}
	// A truncated file decodes with AllowTruncated: the whole frames present.
	s, err := DecodeWAV(good[:len(good)-51], "clip.wav", ReadOptions{AllowTruncated: true})
	if err != nil || len(s.Samples) != 74 {
		t.Fatalf("AllowTruncated: %v, %d samples, want 74", err, len(s.Samples))
	}
}

func TestReadWriteWAV(t *testing.T) {
	dir := t.TempDir()
	in := &Sound{Rate: 16000, Samples: make([]float64, 1600)}
	for i := range in.Samples {
		in.Samples[i] = 0.3 * math.Sin(float64(i)*0.1)
	}
	for _, bits := range []int{8, 16, 24, 32} {
		path := filepath.Join(dir, "x.wav")
		if err := WriteWAV(path, in, bits); err != nil {
			t.Fatal(err)
		}
		out, err := ReadWAV(path)
		if err != nil {
			t.Fatal(err)
		}
		tol := 1.5 / math.Ldexp(1, bits-1)
		for i := range in.Samples {
			if math.Abs(out.Samples[i]-in.Samples[i]) > tol {
				t.Fatalf("%d-bit: sample %d = %g, want %g", bits, i, out.Samples[i], in.Samples[i])
			}
		}
	}
	if _, err := ReadWAV(filepath.Join(dir, "missing.wav")); err == nil || !strings.Contains(err.Error(), "missing.wav") {
		t.Fatalf("missing file: %v", err)
	}
	if err := WriteWAV(filepath.Join(dir, "y.wav"), in, 12); err == nil {
		t.Fatal("12-bit write: no error")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".wav-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestReadsDebianRecordings(t *testing.T) {
	files, _ := filepath.Glob("/usr/share/sounds/alsa/*.wav")
	if len(files) == 0 {
		t.Skip("alsa-utils sounds not installed")
	}
	for _, f := range files {
		s, err := Load(f, DefaultRate)
		if err != nil {
			t.Fatal(err)
		}
		if s.Rate != DefaultRate || s.Duration() < 0.5 {
			t.Fatalf("%s: %g Hz, %.2f s", f, s.Rate, s.Duration())
		}
	}
}
