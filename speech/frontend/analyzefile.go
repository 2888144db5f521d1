package frontend

import (
	"context"
	"fmt"
	"github.com/roleprint/roleprint/speech"
)

// AnalyzeAny is AnalyzeFile for any audio or video file: WAV natively
// (with opts.AllowTruncated for streamed WAVs whose header sizes are
// placeholders), audio and video files (FFmpegExtensions) through ffmpeg
// (see Decode) at
// cfg.Rate, or 44.1 kHz when cfg.Rate is 0 (the file's own rate is not
// known before decoding).
func AnalyzeAny(ctx context.Context, path, transcript string, cfg speech.Config, opts DecodeOptions) (*speech.Features, error) {
	b, err := speech.ReadAudio(path, opts.MaxBytes)
	if err != nil {
		return nil, fmt.Errorf("read audio: %w", err)
	}
	var s *speech.Sound
	if !viaFFmpeg(path, b) {
		s, err = speech.DecodeWAV(b, path, speech.ReadOptions{AllowTruncated: opts.AllowTruncated})
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
	f, err := speech.Analyze(s, transcript, cfg)
	if err != nil {
		return nil, err
	}
	f.File = path
	return f, nil
}
