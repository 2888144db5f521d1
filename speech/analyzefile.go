package speech

import (
	"context"
	"fmt"
)

// AnalyzeAny is AnalyzeFile for any audio or video file: WAV natively
// (with opts.AllowTruncated for streamed WAVs whose header sizes are
// placeholders), audio and video files (FFmpegExtensions) through ffmpeg
// (see Decode) at
// cfg.Rate, or 44.1 kHz when cfg.Rate is 0 (the file's own rate is not
// known before decoding).
func AnalyzeAny(ctx context.Context, path, transcript string, cfg Config, opts DecodeOptions) (*Features, error) {
	b, err := readAudio(path, opts.MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("read audio: %w", err)
	}
	var s *Sound
	if !viaFFmpeg(path, b) {
		s, err = DecodeWAV(b, path, ReadOptions{AllowTruncated: opts.AllowTruncated})
	} else {
		opts.Rate = int(cfg.Rate)
		if opts.Rate <= 0 {
			opts.Rate = VoxRoleAlignRate
		}
		s, err = Decode(ctx, path, opts)
	}
	if err != nil {
		return nil, err
	}
	f, err := Analyze(s, transcript, cfg)
	if err != nil {
		return nil, err
	}
	f.File = path
	return f, nil
}
