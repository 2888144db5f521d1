package speech

import (
	"errors"
	"fmt"

	"github.com/roleprint/roleprint/internal/fsx"
)

// DefaultMaxAudioBytes is the size limit of an audio file read whole when
// the options give none (2 GiB: 18 hours of 16 kHz 16-bit mono, 3 hours of
// 48 kHz 24-bit stereo). Audio files are read into memory whole, so the
// limit keeps a wrong path (a disk image, /dev/zero through a symbolic
// link) from exhausting memory; the speech commands raise it with
// --max-audio-mb.
const DefaultMaxAudioBytes = 2 << 30

// ReadAudio reads an audio file whole: a regular file of at most limit
// bytes (≤ 0: DefaultMaxAudioBytes). A device, FIFO or folder and a larger
// file are errors naming path (see internal/fsx).
func ReadAudio(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxAudioBytes
	}
	b, err := fsx.ReadFile(path, limit)
	var le *fsx.LimitError
	if errors.As(err, &le) {
		return nil, fmt.Errorf("%w (audio files are read whole; raise the limit with --max-audio-mb)", err)
	}
	return b, err
}
