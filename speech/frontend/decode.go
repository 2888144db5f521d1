package frontend

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/roleprint/roleprint/speech"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/data/assets"
)

// Rates of the papers' pipelines.
const (
	// ASRRate is what speech recognisers (Whisper) and the analyses take:
	// 16 kHz mono.
	ASRRate = 16000
	// VoxRoleAlignRate is the 44.1 kHz VoxRole's alignment pipeline works
	// at.
	VoxRoleAlignRate = 44100
)

// DecodeOptions configure Decode and ConvertWAV.
type DecodeOptions struct {
	// Rate is the sample rate of the result in Hz (mono). 0 means ASRRate.
	Rate int
	// AllowTruncated decodes WAV files whose header sizes are
	// placeholders or larger than the file (streamed WAVs such as
	// `espeak-ng --stdout > x.wav`) instead of failing.
	AllowTruncated bool
	// CacheDir holds converted files, keyed by a SHA-256 of the input's
	// content and the rate; "" means "decoded" in the RolePrint cache
	// folder (ROLEPRINT_CACHE, else the user cache dir), "off" no cache
	// (a temporary file the caller removes).
	CacheDir string
	// FFmpeg is the ffmpeg executable; "" looks up "ffmpeg" on PATH.
	FFmpeg string
	// MaxBytes is the size limit of an input file (read whole); 0 means
	// DefaultMaxAudioBytes.
	MaxBytes int64
}

// ErrNoFFmpeg is returned (wrapped) when a file needs ffmpeg and there is
// none.
var ErrNoFFmpeg = errors.New("ffmpeg not found: decoding MP3, FLAC, OGG, M4A and video files needs it; install the Debian package with `sudo apt-get install ffmpeg` (or give WAV files)")

// IsWAV reports whether b starts like a RIFF/WAVE (or RF64) file.
func IsWAV(b []byte) bool {
	return len(b) >= 12 && (string(b[:4]) == "RIFF" || string(b[:4]) == "RF64") && string(b[8:12]) == "WAVE"
}

// FFmpegExtensions are the file name extensions Decode hands to ffmpeg.
var FFmpegExtensions = []string{".mp3", ".flac", ".ogg", ".oga", ".opus", ".m4a", ".aac", ".wma", ".aif", ".aiff", ".caf", ".amr",
	".mp4", ".m4v", ".mkv", ".webm", ".mov", ".avi", ".wmv", ".mpg", ".mpeg", ".ts", ".flv"}

// wavComplete reports whether the WAV in b holds every sample its header
// declares: always when it was read strictly, else when a strict read
// succeeds (a streamed WAV with a placeholder size is rewritten).
func wavComplete(b []byte, path string, opts DecodeOptions) bool {
	if !opts.AllowTruncated {
		return true
	}
	_, err := speech.DecodeWAV(b, path, speech.ReadOptions{})
	return err == nil
}

// viaFFmpeg reports whether path (content b) should be decoded by ffmpeg:
// not a WAV, and an audio or video extension.
func viaFFmpeg(path string, b []byte) bool {
	if IsWAV(b) {
		return false
	}
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range FFmpegExtensions {
		if ext == e {
			return true
		}
	}
	return false
}

// Decode reads any audio or video file into a mono Sound at opts.Rate:
// WAV natively, everything else (MP3, FLAC, OGG, M4A, MP4, MKV, ...)
// through ffmpeg (files with one of FFmpegExtensions), whose output is
// cached (see ConvertWAV). Errors name the file.
func Decode(ctx context.Context, path string, opts DecodeOptions) (*speech.Sound, error) {
	rate := opts.Rate
	if rate <= 0 {
		rate = ASRRate
	}
	b, err := speech.ReadAudio(path, opts.MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if !viaFFmpeg(path, b) {
		s, err := speech.DecodeWAV(b, path, speech.ReadOptions{AllowTruncated: opts.AllowTruncated})
		if err != nil {
			return nil, err
		}
		if s.Rate == float64(rate) {
			return s, nil
		}
		return speech.Resample(s, float64(rate), speech.ResampleConfig{})
	}
	wavPath, cleanup, err := convert(ctx, path, b, rate, opts)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	return speech.ReadWAV(wavPath)
}

// ConvertWAV returns the path of a 16-bit mono WAV of path at opts.Rate:
// a cached conversion (computed once per content and rate), or path itself
// when it already is such a WAV. WAV input is converted by RolePrint's own
// resampler, anything else by ffmpeg. With CacheDir "off" the file is
// temporary and cleanup removes it; otherwise cleanup does nothing.
func ConvertWAV(ctx context.Context, path string, opts DecodeOptions) (wavPath string, cleanup func(), err error) {
	rate := opts.Rate
	if rate <= 0 {
		rate = ASRRate
	}
	b, err := speech.ReadAudio(path, opts.MaxBytes)
	if err != nil {
		return "", nil, fmt.Errorf("convert: %w", err)
	}
	if !viaFFmpeg(path, b) {
		s, err := speech.DecodeWAV(b, path, speech.ReadOptions{AllowTruncated: opts.AllowTruncated})
		if err != nil {
			return "", nil, err
		}
		f := s.Source
		if f.Rate == rate && f.Channels == 1 && f.Bits == 16 && !f.Float && wavComplete(b, path, opts) {
			return path, func() {}, nil
		}
		if s.Rate != float64(rate) {
			if s, err = speech.Resample(s, float64(rate), speech.ResampleConfig{}); err != nil {
				return "", nil, err
			}
		}
		out, cleanup, cached, err := cachePath(b, rate, opts)
		if err != nil || cached {
			return out, cleanup, err
		}
		if err := speech.WriteWAV(out, s, 16); err != nil {
			cleanup()
			return "", nil, err
		}
		return out, cleanup, nil
	}
	return convert(ctx, path, b, rate, opts)
}

// cachePath returns where the conversion of content b at rate goes and
// whether it is already there.
func cachePath(b []byte, rate int, opts DecodeOptions) (path string, cleanup func(), cached bool, err error) {
	h := sha256.Sum256(b)
	key := fmt.Sprintf("%s-%d", hex.EncodeToString(h[:]), rate)
	dir := opts.CacheDir
	if strings.EqualFold(dir, "off") {
		f, err := os.CreateTemp("", "roleprint-decoded-*.wav")
		if err != nil {
			return "", nil, false, fmt.Errorf("convert: %w", err)
		}
		f.Close()
		return f.Name(), func() { os.Remove(f.Name()) }, false, nil
	}
	if dir == "" {
		if dir, err = assets.Path("decoded"); err != nil {
			return "", nil, false, fmt.Errorf("convert: no cache folder: %w (set DecodeOptions.CacheDir)", err)
		}
	}
	p := filepath.Join(dir, key[:2], key+".wav")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", nil, false, fmt.Errorf("convert: %w", err)
	}
	if st, err := os.Stat(p); err == nil && st.Size() > 44 {
		return p, func() {}, true, nil
	}
	return p, func() {}, false, nil
}

// convert runs ffmpeg on a non-WAV file.
func convert(ctx context.Context, path string, b []byte, rate int, opts DecodeOptions) (string, func(), error) {
	ff := opts.FFmpeg
	if ff == "" {
		ff = "ffmpeg"
	}
	out, cleanup, cached, err := cachePath(b, rate, opts)
	if err != nil || cached {
		return out, cleanup, err
	}
	bin, err := exec.LookPath(ff)
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("%s: %w", path, ErrNoFFmpeg)
	}
	tf, err := os.CreateTemp(filepath.Dir(out), ".decode-*.wav")
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("convert %s: %w", path, err)
	}
	tmp := tf.Name()
	tf.Close()
	cmd := exec.CommandContext(ctx, bin, "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", path,
		"-vn", "-ac", "1", "-ar", fmt.Sprint(rate), "-c:a", "pcm_s16le", "-f", "wav", tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = io.Discard
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		cleanup()
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 400 {
			msg = "…" + msg[len(msg)-400:]
		}
		return "", nil, fmt.Errorf("%s: ffmpeg could not decode it (%v): %s", path, err, msg)
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Remove(tmp)
		cleanup()
		return "", nil, fmt.Errorf("convert %s: %w", path, err)
	}
	return out, cleanup, nil
}
