package importers

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// This file turns the bytes of a text file into UTF-8 text, the same way
// for every format. What comes from golang.org/x/text and what is written
// here:
//
//   - UTF-16 (LE and BE) and whole-file Windows-1252 decoding are the
//     library's (unicode.UTF16, charmap.Windows1252).
//   - The byte-order-mark check runs on the raw bytes before any decoding
//     (a UTF-8 BOM read as Windows-1252 becomes "ï»¿" and breaks a header).
//   - BOM-less UTF-16 is recognised by where the NUL bytes fall (ASCII
//     text in UTF-16 has a zero byte in every other position); the library
//     only honours a BOM.
//   - Mixed files are hand-written: the library decodes a whole stream in
//     one encoding, but real releases (the Harry Potter movie CSVs) mix
//     UTF-8 lines and Windows-1252 lines, and even both inside one line.
//     decodeMixed keeps every valid UTF-8 sequence and reads each byte
//     that is not part of one as Windows-1252, so both kinds of line come
//     out right.
//   - repairMojibake is hand-written too: text that was UTF-8, was once
//     read as Windows-1252 and saved again ("SÃ©lithaeine", "water.â€�")
//     is turned back. No kept Go library does this; the rule is narrow
//     (only character runs whose Windows-1252 bytes form one valid
//     multi-byte UTF-8 sequence) so ordinary accented text is untouched.
//
// Line ends are unified to "\n" (CRLF, LF and old-Mac CR files read
// alike), so line numbers and CSV parsing do not depend on them.

// errNotText marks a file that does not decode as text (NUL bytes, many
// control characters: an image, an archive, a spreadsheet). Found while
// walking a folder, such a file is skipped; named explicitly, it is an
// error.
var errNotText = errors.New("not a text file")

// ErrNotText is returned (wrapped in an *InputError) for a file that is
// not text; test for it with errors.Is.
var ErrNotText = errNotText

// utf8Unchecked is UTF8 for callers that check the text themselves
// (scanCSV names the row and the column of an invalid byte).
const utf8Unchecked = "utf-8-unchecked"

// textInfo describes how decodeText read a file, for notes and tests.
type textInfo struct {
	// Encoding is "utf-8", "utf-16le", "utf-16be", "windows-1252" or
	// "mixed" (UTF-8 with Windows-1252 bytes).
	Encoding string
	// BOM is true when the file started with a byte-order mark.
	BOM bool
	// Fallback counts the bytes read as Windows-1252 in a mixed file.
	Fallback int
	// Repaired counts the mojibake sequences turned back into UTF-8.
	Repaired int
}

// decodeText returns the text of a file's bytes as UTF-8, with "\n" line
// ends and without any leading byte-order mark (all of them, when a file
// holds several). enc is UTF8 (strict: an invalid
// byte is an *InputError naming path and line), Latin1 (Windows-1252 for
// the whole file) or Auto (mixed decoding plus mojibake repair). A BOM or
// a UTF-16 byte pattern wins over enc. Text holding NUL bytes is an
// *InputError wrapping ErrNotText.
func decodeText(path string, b []byte, enc string) (string, textInfo, error) {
	var info textInfo
	utf16 := ""
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		// Every leading mark goes: a file saved twice by a BOM-adding
		// editor starts with two, and the second would glue itself to the
		// first header or line.
		for bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}) {
			b = b[3:]
		}
		info.BOM = true
		if enc == Latin1 {
			enc = Auto // the mark says UTF-8, whatever the format's default
		}
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		utf16, info.BOM = "utf-16le", true
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		utf16, info.BOM = "utf-16be", true
	default:
		utf16 = sniffUTF16(b)
	}
	var text string
	switch {
	case utf16 != "":
		order := unicode.LittleEndian
		if utf16 == "utf-16be" {
			order = unicode.BigEndian
		}
		out, err := unicode.UTF16(order, unicode.ExpectBOM).NewDecoder().Bytes(b)
		if !info.BOM {
			out, err = unicode.UTF16(order, unicode.IgnoreBOM).NewDecoder().Bytes(b)
		}
		if err != nil {
			return "", info, Errorf(Pos{File: path}, "cannot decode %s: %v", strings.ToUpper(utf16), err)
		}
		info.Encoding = utf16
		text = string(out)
	case enc == Latin1:
		out, err := charmap.Windows1252.NewDecoder().Bytes(b)
		if err != nil {
			return "", info, Errorf(Pos{File: path}, "%v", err)
		}
		info.Encoding = "windows-1252"
		text = string(out)
	case enc == utf8Unchecked:
		info.Encoding = "utf-8"
		text = string(b)
	case enc == UTF8:
		if off := invalidUTF8(b); off >= 0 {
			return "", info, Errorf(Pos{File: path, Line: lineAtAny(b, off)}, "%s", badUTF8("byte "+fmt.Sprint(off)))
		}
		info.Encoding = "utf-8"
		text = string(b)
	default:
		text, info.Fallback = decodeMixed(b)
		info.Encoding = "utf-8"
		if info.Fallback > 0 {
			info.Encoding = "mixed"
		}
		text, info.Repaired = repairMojibake(unifyLineEnds(text))
	}
	// Marks left after decoding (a UTF-16 mark inside UTF-16 text, a
	// UTF-8 mark after a Windows-1252 one) are dropped too: no line, header
	// or first field starts with U+FEFF.
	text = strings.TrimLeft(unifyLineEnds(text), "\ufeff")
	if strings.IndexByte(text, 0) >= 0 || tooManyControls(text) {
		return "", info, &InputError{Pos: Pos{File: path}, Msg: "binary data (NUL or control bytes); expected a text file", Err: errNotText}
	}
	return text, info, nil
}

// invalidUTF8 returns the offset of the first byte of b that is not part
// of a valid UTF-8 sequence, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	off := 0
	for off < len(b) {
		r, size := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && size <= 1 {
			return off
		}
		off += size
	}
	return -1
}

// lineAtAny returns the 1-based line holding byte offset off of b,
// counting LF, CRLF and lone CR line ends.
func lineAtAny(b []byte, off int) int {
	off = min(max(off, 0), len(b))
	n := 1
	for i := 0; i < off; i++ {
		switch b[i] {
		case '\n':
			n++
		case '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				n++
			}
		}
	}
	return n
}

// sniffUTF16 recognises BOM-less UTF-16 by its NUL bytes: text with any
// ASCII in it (line ends, digits, punctuation, Latin letters) has zero
// bytes at odd offsets in little-endian order and at even offsets in
// big-endian order, and almost none at the other parity. It looks at the
// first 64 KiB and returns "utf-16le", "utf-16be" or "".
func sniffUTF16(b []byte) string {
	if len(b) < 4 {
		return ""
	}
	head := b[:min(len(b), 64*1024)&^1]
	var even, odd int
	for i := 0; i+1 < len(head); i += 2 {
		if head[i] == 0 {
			even++
		}
		if head[i+1] == 0 {
			odd++
		}
	}
	pairs := len(head) / 2
	need := max(1, pairs/100)
	switch {
	case odd >= need && even*10 <= odd:
		return "utf-16le"
	case even >= need && odd*10 <= even:
		return "utf-16be"
	}
	return ""
}

// cp1252 maps every byte to its Windows-1252 character; the five bytes
// that encoding leaves undefined map to the C1 controls of the same value,
// as browsers do (the library returns U+FFFD for them).
var cp1252 = func() (t [256]rune) {
	for i := range t {
		t[i] = charmap.Windows1252.DecodeByte(byte(i))
		if t[i] == utf8.RuneError {
			t[i] = rune(i)
		}
	}
	return t
}()

// cp1252Byte is the inverse of cp1252 for the bytes 0x80–0xFF.
var cp1252Byte = func() map[rune]byte {
	m := make(map[rune]byte, 128)
	for i := 0x80; i < 0x100; i++ {
		m[cp1252[i]] = byte(i)
	}
	return m
}()

// decodeMixed decodes b as UTF-8, reading each byte that does not start a
// valid UTF-8 sequence as Windows-1252; it returns the text and the number
// of such bytes.
func decodeMixed(b []byte) (string, int) {
	if utf8.Valid(b) {
		return string(b), 0
	}
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	n := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			sb.WriteRune(cp1252[b[i]])
			n++
			i++
			continue
		}
		sb.Write(b[i : i+size])
		i += size
	}
	return sb.String(), n
}

// repairMojibake turns runs of characters that are the Windows-1252
// reading of one UTF-8 sequence back into that character ("Ã©" → "é",
// "â€™" → "’") and returns the text with the number of repairs. A run
// qualifies only when its first character is a UTF-8 lead byte (Â..ô),
// the rest are continuation bytes (0x80–0xBF in Windows-1252) and the
// bytes decode to one character above U+009F. One case of lost
// information is guessed: "â€" followed by U+FFFD (the byte 0x9D that
// Windows-1252 lacks) was a closing double quote "”".
func repairMojibake(s string) (string, int) {
	if !hasMojibakeLead(s) {
		return s, 0
	}
	if strings.Count(s, "\n") > 1 {
		// Line by line, so a large file is not turned into runes whole.
		var sb strings.Builder
		sb.Grow(len(s))
		fixed := 0
		for line := range strings.SplitAfterSeq(s, "\n") {
			l, n := repairMojibake(line)
			sb.WriteString(l)
			fixed += n
		}
		return sb.String(), fixed
	}
	rs := []rune(s)
	var sb strings.Builder
	sb.Grow(len(s))
	fixed := 0
	for i := 0; i < len(rs); i++ {
		if r, n := mojibakeAt(rs, i); n > 0 {
			sb.WriteRune(r)
			fixed++
			i += n - 1
			continue
		}
		sb.WriteRune(rs[i])
	}
	return sb.String(), fixed
}

// hasMojibakeLead is a quick check for a character that can start a
// mojibake run followed by one that can continue it.
func hasMojibakeLead(s string) bool {
	prevLead := false
	for _, r := range s {
		if prevLead {
			if _, ok := contByte(r); ok {
				return true
			}
		}
		prevLead = r >= 0xC2 && r <= 0xF4
	}
	return false
}

// contByte returns the Windows-1252 byte of r when it is a UTF-8
// continuation byte (0x80–0xBF).
func contByte(r rune) (byte, bool) {
	if r >= 0x80 && r <= 0xBF {
		return byte(r), true // C1 controls and U+00A0–U+00BF: same value
	}
	b, ok := cp1252Byte[r]
	return b, ok && b >= 0x80 && b <= 0xBF
}

// mojibakeAt returns the character a mojibake run starting at rs[i]
// stands for and the run's length, or 0 when there is none.
func mojibakeAt(rs []rune, i int) (rune, int) {
	lead := rs[i]
	var n int
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		n = 2
	case lead >= 0xE0 && lead <= 0xEF:
		n = 3
	case lead >= 0xF0 && lead <= 0xF4:
		n = 4
	default:
		return 0, 0
	}
	if i+n > len(rs) {
		return 0, 0
	}
	buf := []byte{byte(lead)}
	for k := 1; k < n; k++ {
		c, ok := contByte(rs[i+k])
		if !ok {
			// "â€" + U+FFFD: the lost byte of "”" (E2 80 9D).
			if n == 3 && k == 2 && lead == 0xE2 && buf[1] == 0x80 && rs[i+k] == utf8.RuneError {
				return '”', 3
			}
			return 0, 0
		}
		buf = append(buf, c)
	}
	r, size := utf8.DecodeRune(buf)
	if r == utf8.RuneError || size != n || r < 0xA0 {
		return 0, 0
	}
	return r, n
}

// unifyLineEnds turns CRLF and lone CR line ends into LF.
func unifyLineEnds(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// tooManyControls reports whether the start of s looks like binary data
// rather than text: more than one character in 20 is a C0 control other
// than tab, line feed, form feed and vertical tab.
func tooManyControls(s string) bool {
	head := s[:min(len(s), 64*1024)]
	ctl, n := 0, 0
	for _, r := range head {
		n++
		if r < 0x20 && r != '\t' && r != '\n' && r != '\f' && r != '\v' {
			ctl++
		}
	}
	return n > 0 && ctl*20 > n
}
