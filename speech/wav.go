package speech

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/go-audio/audio"
	"github.com/go-audio/wav"
	"github.com/roleprint/roleprint/internal/fsx"
)

// ReadOptions tunes DecodeWAV. The zero value is strict.
type ReadOptions struct {
	// AllowTruncated decodes the whole frames present when the data chunk
	// declares more bytes than the file holds (a recorder that crashed, a
	// stream header with a placeholder size) instead of failing.
	AllowTruncated bool
	// MaxBytes is the size limit of the file; 0 means
	// DefaultMaxAudioBytes.
	MaxBytes int64
}

// ReadWAV reads a WAV file into a mono Sound at the file's own sample rate
// (multichannel audio is averaged). It accepts PCM 8/16/24/32-bit and IEEE
// float 32/64-bit, plain or WAVE_FORMAT_EXTENSIBLE. Errors name the file and
// say what was expected; truncated files are an error (see ReadOptions).
func ReadWAV(path string) (*Sound, error) {
	return ReadWAVWith(path, ReadOptions{})
}

// ReadWAVWith is ReadWAV with options.
func ReadWAVWith(path string, opts ReadOptions) (*Sound, error) {
	b, err := ReadAudio(path, opts.MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("read WAV: %w", err)
	}
	return DecodeWAV(b, path, opts)
}

// Load reads a WAV file and resamples it to rate Hz (DefaultRate when rate
// is 0), the usual first step of every analysis.
func Load(path string, rate float64) (*Sound, error) {
	s, err := ReadWAV(path)
	if err != nil {
		return nil, err
	}
	if rate == 0 {
		rate = DefaultRate
	}
	return Resample(s, rate, ResampleConfig{})
}

// DecodeWAV decodes a whole WAV file held in memory; name labels errors.
// It never panics, whatever the bytes.
func DecodeWAV(b []byte, name string, opts ReadOptions) (s *Sound, err error) {
	defer func() {
		// go-audio/wav is not hardened against hostile input; scanWAV
		// rejects what we know breaks it, and this turns anything left
		// into an error rather than a crash.
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("%s: corrupt WAV (decoder failed: %v)", name, r)
		}
	}()
	l, err := scanWAV(b, opts.AllowTruncated)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var samples []float64
	switch {
	case l.format.Float:
		samples = decodeFloat(b[l.dataOff:l.dataOff+l.dataLen], l.format)
		for i, v := range samples {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: corrupt: sample %d is %v; expected finite float samples", name, i, v)
			}
		}
	case l.format.Bits == 16 && l.blockAlign == 2*l.format.Channels:
		samples = decodePCM16(b[l.dataOff:l.dataOff+l.dataLen], l.format.Channels)
	default:
		samples, err = decodePCM(b, l)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return &Sound{Samples: samples, Rate: float64(l.format.Rate), Name: name, Source: l.format}, nil
}

// decodePCM decodes integer PCM with go-audio/wav into an audio.IntBuffer,
// checks that go-audio read the header as scanWAV did, and downmixes to mono
// floats scaled to [-1, 1).
func decodePCM(b []byte, l wavLayout) ([]float64, error) {
	// Hand go-audio a canonical file — a 16-byte "fmt " chunk and the
	// validated sample bytes — rather than the original: it trusts the
	// sizes inside LIST and other chunks (allocating whatever they claim)
	// and reads past truncated ones.
	hdr := canonicalHeader(l)
	dec := wav.NewDecoder(&concatReader{parts: [][]byte{hdr, b[l.dataOff : l.dataOff+l.dataLen]}})
	if err := dec.FwdToPCM(); err != nil {
		return nil, fmt.Errorf("corrupt: %v", err)
	}
	if dec.Err() != nil {
		return nil, fmt.Errorf("corrupt: %v", dec.Err())
	}
	if int(dec.NumChans) != l.format.Channels || int(dec.BitDepth) != l.format.Bits || int(dec.SampleRate) != l.format.Rate {
		return nil, fmt.Errorf("corrupt: ambiguous header (go-audio/wav reads %d ch %d-bit %d Hz, chunk table says %s)",
			dec.NumChans, dec.BitDepth, dec.SampleRate, l.format)
	}
	nFrames := l.dataLen / l.blockAlign
	ch := l.format.Channels
	want := nFrames * ch
	buf := &audio.IntBuffer{Data: make([]int, want), Format: dec.Format(), SourceBitDepth: l.format.Bits}
	got := 0
	for got < want {
		chunk := &audio.IntBuffer{Data: buf.Data[got:min(want, got+1<<16)]}
		n, err := dec.PCMBuffer(chunk)
		if err != nil {
			return nil, fmt.Errorf("corrupt sample data after %d samples: %v", got, err)
		}
		if n == 0 {
			break
		}
		got += n
	}
	if got != want {
		return nil, fmt.Errorf("truncated: decoded %d of %d samples", got, want)
	}
	scale, offset := pcmScale(l.format.Bits)
	out := make([]float64, nFrames)
	inv := 1 / float64(ch)
	for f := 0; f < nFrames; f++ {
		var sum float64
		for c := 0; c < ch; c++ {
			sum += float64(buf.Data[f*ch+c]) - offset
		}
		out[f] = sum * inv * scale
	}
	return out, nil
}

// decodePCM16 decodes 16-bit little-endian PCM frames of ch channels (the
// bytes scanWAV validated) and downmixes them exactly as decodePCM does.
// Hand-written for speed, since 16-bit is what nearly every file is:
// go-audio/wav reads through an io.Reader, a per-sample decoding function
// and an []int buffer: ReadWAV took 24 ms of CPU per minute of 16 kHz audio
// that way, a tenth of "speech features", and takes 7 ms with this loop
// (BenchmarkReadWAVMinute, docs/speech.md).
func decodePCM16(data []byte, ch int) []float64 {
	nFrames := len(data) / (2 * ch)
	out := make([]float64, nFrames)
	scale, _ := pcmScale(16)
	if ch == 1 {
		for i := range out {
			out[i] = float64(int16(binary.LittleEndian.Uint16(data[2*i:]))) * scale
		}
		return out
	}
	inv := 1 / float64(ch)
	for f := range out {
		frame := data[2*ch*f : 2*ch*(f+1)]
		var sum float64
		for c := 0; c < ch; c++ {
			sum += float64(int16(binary.LittleEndian.Uint16(frame[2*c:])))
		}
		out[f] = sum * inv * scale
	}
	return out
}

// canonicalHeader returns the 44-byte header of a plain PCM WAV file with
// l's format whose data chunk holds l.dataLen bytes.
func canonicalHeader(l wavLayout) []byte {
	h := make([]byte, 0, 44)
	le16 := func(v int) { h = binary.LittleEndian.AppendUint16(h, uint16(v)) }
	le32 := func(v int) { h = binary.LittleEndian.AppendUint32(h, uint32(v)) }
	h = append(h, "RIFF"...)
	le32(36 + l.dataLen)
	h = append(h, "WAVEfmt "...)
	le32(16)
	le16(wavFormatPCM)
	le16(l.format.Channels)
	le32(l.format.Rate)
	le32(l.format.Rate * l.blockAlign)
	le16(l.blockAlign)
	le16(l.format.Bits)
	h = append(h, "data"...)
	le32(l.dataLen)
	return h
}

// concatReader reads a sequence of byte slices as one stream, without
// copying them; it seeks too, as go-audio's decoder wants an io.ReadSeeker.
type concatReader struct {
	parts [][]byte
	pos   int64
}

func (c *concatReader) size() int64 {
	var n int64
	for _, p := range c.parts {
		n += int64(len(p))
	}
	return n
}

// Read implements io.Reader.
func (c *concatReader) Read(dst []byte) (int, error) {
	n := 0
	off := c.pos
	for _, p := range c.parts {
		if off >= int64(len(p)) {
			off -= int64(len(p))
			continue
		}
		k := copy(dst[n:], p[off:])
		n += k
		off = 0
		if n == len(dst) {
			break
		}
	}
	c.pos += int64(n)
	if n == 0 && len(dst) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// Seek implements io.Seeker.
func (c *concatReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += c.pos
	case io.SeekEnd:
		offset += c.size()
	}
	if offset < 0 {
		return c.pos, fmt.Errorf("seek to negative offset %d", offset)
	}
	c.pos = offset
	return offset, nil
}

// pcmScale returns the factor that maps integer samples of the given size to
// [-1, 1) and the offset to subtract first (8-bit WAV is unsigned).
func pcmScale(bits int) (scale, offset float64) {
	if bits == 8 {
		return 1.0 / 128, 128
	}
	return 1 / math.Ldexp(1, bits-1), 0
}

// decodeFloat decodes little-endian IEEE float frames and downmixes them.
// Hand-written because go-audio/wav decodes only integer PCM.
func decodeFloat(data []byte, f Format) []float64 {
	bps := f.Bits / 8
	ch := f.Channels
	nFrames := len(data) / (bps * ch)
	out := make([]float64, nFrames)
	inv := 1 / float64(ch)
	for i := 0; i < nFrames; i++ {
		var sum float64
		for c := 0; c < ch; c++ {
			p := data[(i*ch+c)*bps:]
			if bps == 4 {
				sum += float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
			} else {
				sum += math.Float64frombits(binary.LittleEndian.Uint64(p))
			}
		}
		out[i] = sum * inv
	}
	return out
}

// WriteWAV writes s as a mono integer-PCM WAV file of the given bit depth
// (8, 16, 24 or 32; 0 means 16) with go-audio/wav. Samples are clipped to
// [-1, 1]. The file is written to a temporary name and renamed, so an
// existing file is never left half-written.
func WriteWAV(path string, s *Sound, bits int) (err error) {
	if bits == 0 {
		bits = 16
	}
	if bits != 8 && bits != 16 && bits != 24 && bits != 32 {
		return fmt.Errorf("write %s: unsupported bit depth %d; expected 8, 16, 24 or 32", path, bits)
	}
	if s.Rate < 1 || s.Rate != math.Trunc(s.Rate) {
		return fmt.Errorf("write %s: sample rate %g Hz is not a positive integer", path, s.Rate)
	}
	scale, offset := pcmScale(bits)
	maxV := math.Ldexp(1, bits-1) - 1
	data := make([]int, len(s.Samples))
	for i, v := range s.Samples {
		q := math.Round(v / scale)
		q = math.Max(-maxV-1, math.Min(maxV, q))
		data[i] = int(q + offset)
	}
	buf := &audio.IntBuffer{Data: data, Format: &audio.Format{NumChannels: 1, SampleRate: int(s.Rate)}, SourceBitDepth: bits}
	// A WAV is for listening and sharing: mode 0644. The encoder seeks
	// back to patch the header, hence WriteSeeker.
	return fsx.WriteSeeker(path, 0o644, func(w io.WriteSeeker) error {
		enc := wav.NewEncoder(w, int(s.Rate), bits, 1, wavFormatPCM)
		if err := enc.Write(buf); err != nil {
			return err
		}
		return enc.Close()
	})
}
