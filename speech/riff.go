package speech

import (
	"encoding/binary"
	"fmt"
)

// WAV format tags (the first field of the "fmt " chunk).
const (
	wavFormatPCM        = 0x0001
	wavFormatFloat      = 0x0003
	wavFormatExtensible = 0xFFFE
)

// wavLayout is what scanWAV learns from a file's RIFF structure: the sample
// format and where the sample bytes are.
type wavLayout struct {
	format     Format
	blockAlign int
	dataOff    int // offset of the first sample byte
	dataLen    int // bytes of whole frames available from dataOff
	declared   int // bytes the data chunk header declares
}

// scanWAV walks the RIFF chunks of a WAV file held in b and validates them
// before any sample is decoded.
//
// Written by hand because go-audio/wav (which decodes the samples, see
// wav.go) trusts the header: it allocates whatever the fmt chunk size says,
// silently returns fewer samples for a truncated data chunk and has no
// float or WAVE_FORMAT_EXTENSIBLE support. Checking the chunk table first
// turns all of these into errors that say what was expected.
func scanWAV(b []byte, allowTruncated bool) (wavLayout, error) {
	var l wavLayout
	if len(b) < 12 {
		return l, fmt.Errorf("not a WAV file: %d bytes, expected at least the 12-byte RIFF/WAVE header", len(b))
	}
	switch id := string(b[0:4]); id {
	case "RIFF":
	case "RIFX":
		return l, fmt.Errorf("big-endian RIFX WAV is not supported; expected a little-endian RIFF file")
	case "RF64":
		return l, fmt.Errorf("RF64 (64-bit WAV) is not supported; expected a RIFF file under 4 GiB")
	default:
		return l, fmt.Errorf("not a WAV file: starts with %q, expected \"RIFF\"", printable(b[0:4]))
	}
	if form := string(b[8:12]); form != "WAVE" {
		return l, fmt.Errorf("RIFF file of type %q, expected \"WAVE\"", printable(b[8:12]))
	}
	var haveFmt, haveData bool
	off := 12
	for off < len(b) {
		if len(b)-off < 8 {
			if haveFmt && haveData {
				break // trailing padding after the last chunk
			}
			return l, fmt.Errorf("truncated: chunk header at byte %d needs 8 bytes, only %d remain", off, len(b)-off)
		}
		id := string(b[off : off+4])
		size := int(binary.LittleEndian.Uint32(b[off+4 : off+8]))
		body := off + 8
		remain := len(b) - body
		switch id {
		case "fmt ":
			if size > remain {
				return l, fmt.Errorf("truncated: \"fmt \" chunk at byte %d declares %d bytes, only %d remain", off, size, remain)
			}
			if err := parseFmt(b[body:body+size], &l); err != nil {
				return l, err
			}
			haveFmt = true
		case "data":
			if haveData {
				return l, fmt.Errorf("corrupt: second data chunk at byte %d", off)
			}
			haveData = true
			l.dataOff = body
			l.declared = size
			l.dataLen = size
			if size > remain {
				if !allowTruncated {
					return l, fmt.Errorf("truncated: data chunk at byte %d declares %d bytes, only %d present (a streamed WAV with a placeholder size, such as espeak-ng --stdout writes? read it with --allow-truncated)", off, size, remain)
				}
				l.dataLen = remain
			}
		}
		if size > remain {
			if id == "data" {
				break // allowed truncation: nothing can follow
			}
			if haveFmt && haveData {
				break // a broken trailing chunk (metadata) after the audio
			}
			return l, fmt.Errorf("truncated: %q chunk at byte %d declares %d bytes, only %d remain", printable(b[off:off+4]), off, size, remain)
		}
		off = body + size + size&1 // chunks are word aligned
	}
	if !haveFmt {
		return l, fmt.Errorf("corrupt: no \"fmt \" chunk; expected one before the samples")
	}
	if !haveData {
		return l, fmt.Errorf("corrupt: no data chunk; the file holds no samples")
	}
	if rem := l.dataLen % l.blockAlign; rem != 0 {
		if l.dataLen == l.declared && !allowTruncated {
			return l, fmt.Errorf("corrupt: data chunk holds %d bytes, not a whole number of %d-byte frames", l.dataLen, l.blockAlign)
		}
		l.dataLen -= rem
	}
	if l.dataLen == 0 {
		return l, fmt.Errorf("empty: the data chunk holds no samples")
	}
	return l, nil
}

// parseFmt reads the "fmt " chunk body into l and checks that RolePrint can
// decode the format.
func parseFmt(f []byte, l *wavLayout) error {
	if len(f) < 16 {
		return fmt.Errorf("corrupt: \"fmt \" chunk has %d bytes, expected at least 16", len(f))
	}
	tag := binary.LittleEndian.Uint16(f[0:2])
	ch := int(binary.LittleEndian.Uint16(f[2:4]))
	rate := int(binary.LittleEndian.Uint32(f[4:8]))
	align := int(binary.LittleEndian.Uint16(f[12:14]))
	bits := int(binary.LittleEndian.Uint16(f[14:16]))
	if tag == wavFormatExtensible {
		if len(f) < 40 {
			return fmt.Errorf("corrupt: WAVE_FORMAT_EXTENSIBLE \"fmt \" chunk has %d bytes, expected 40", len(f))
		}
		tag = binary.LittleEndian.Uint16(f[24:26]) // first two bytes of the sub-format GUID
	}
	switch tag {
	case wavFormatPCM:
		if bits != 8 && bits != 16 && bits != 24 && bits != 32 {
			return fmt.Errorf("unsupported PCM sample size %d bits; expected 8, 16, 24 or 32", bits)
		}
	case wavFormatFloat:
		if bits != 32 && bits != 64 {
			return fmt.Errorf("unsupported float sample size %d bits; expected 32 or 64", bits)
		}
	default:
		return fmt.Errorf("unsupported WAV encoding %s (format tag 0x%04x); expected PCM or IEEE float", formatTagName(tag), tag)
	}
	if ch < 1 {
		return fmt.Errorf("corrupt: %d channels, expected at least 1", ch)
	}
	if rate < 1 || rate > 1_000_000 {
		return fmt.Errorf("corrupt: sample rate %d Hz, expected 1 to 1000000", rate)
	}
	if want := ch * bits / 8; align != want {
		return fmt.Errorf("corrupt: block align %d bytes, expected %d (%d channels × %d bits)", align, want, ch, bits)
	}
	l.format = Format{Channels: ch, Rate: rate, Bits: bits, Float: tag == wavFormatFloat}
	l.blockAlign = align
	return nil
}

// formatTagName names the common non-PCM WAV encodings for error messages.
func formatTagName(tag uint16) string {
	switch tag {
	case 0x0002:
		return "MS ADPCM"
	case 0x0006:
		return "A-law"
	case 0x0007:
		return "µ-law"
	case 0x0011:
		return "IMA ADPCM"
	case 0x0031:
		return "GSM 6.10"
	case 0x0055:
		return "MP3"
	}
	return "unknown"
}

// printable renders up to four header bytes for a message, replacing
// control bytes so that binary garbage does not corrupt a terminal.
func printable(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c < 0x20 || c > 0x7e {
			c = '?'
		}
		out[i] = c
	}
	return string(out)
}
