package neural

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/roleprint/roleprint/internal/fsx"
)

// Text normalisation of the tokenizers, written here rather than taken
// from github.com/sugarme/tokenizer: sugarme's NormalizedString tracks how
// every byte of the normalised text maps back to the original, and its
// bookkeeping breaks when a normaliser changes a text's length (clean-up
// dropping a control character, accent stripping dropping the combining
// marks left by NFD) or meets an invalid UTF-8 byte: EncodeSingle then
// panics (index or slice bounds out of range) on inputs such as
// "caf\xe9", "\x00", "\x01\x890\x01" or "Å\u0301". The encoders use only the ids,
// never the offsets, so the normalisation runs here as a plain string
// function, once, before the tokenizer, which is built without a
// normaliser and so keeps identity alignments.

// textNormalizer is one normalisation step (Hugging Face's normalizer
// types, same names and settings).
type textNormalizer func(string) string

// bertNormalizer is Hugging Face's BertNormalizer: clean-up (drop NUL,
// U+FFFD and other control characters, turn every white space into a
// space), spaces around CJK ideographs, accent stripping (NFD, then drop
// non-spacing marks) and lower-casing.
func bertNormalizer(cleanText, chineseChars, stripAccents, lowercase bool) textNormalizer {
	return func(s string) string {
		var b strings.Builder
		b.Grow(len(s))
		for _, r := range s {
			switch {
			case cleanText && (r == 0 || r == utf8.RuneError || isControl(r)):
				continue
			case cleanText && isWhitespace(r):
				b.WriteByte(' ')
			case chineseChars && isCJK(r):
				b.WriteByte(' ')
				b.WriteRune(r)
				b.WriteByte(' ')
			default:
				b.WriteRune(r)
			}
		}
		s = b.String()
		if stripAccents {
			s = stripMarks(s)
		}
		if lowercase {
			s = strings.ToLower(s)
		}
		return s
	}
}

// isControl is BERT's control test: the "other" categories (Cc, Cf, Co,
// Cs and unassigned code points) except tab, line feed and carriage
// return, which count as white space.
func isControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) ||
		!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z)
}

// isWhitespace is BERT's white-space test.
func isWhitespace(r rune) bool { return unicode.IsSpace(r) }

// isCJK reports a CJK Unified Ideograph (BERT's "Chinese character"
// blocks).
func isCJK(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF || r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2B73F || r >= 0x2B740 && r <= 0x2B81F || r >= 0x2B820 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF || r >= 0x2F800 && r <= 0x2FA1F
}

// stripMarks decomposes s (NFD) and drops the non-spacing marks.
func stripMarks(s string) string {
	s = norm.NFD.String(s)
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}

// normalizerSpec is the "normalizer" object of a tokenizer.json.
type normalizerSpec struct {
	Type               string            `json:"type"`
	CleanText          *bool             `json:"clean_text"`
	HandleChineseChars *bool             `json:"handle_chinese_chars"`
	StripAccents       *bool             `json:"strip_accents"`
	Lowercase          *bool             `json:"lowercase"`
	StripLeft          bool              `json:"strip_left"`
	StripRight         bool              `json:"strip_right"`
	Pattern            map[string]string `json:"pattern"`
	Content            string            `json:"content"`
	Prepend            string            `json:"prepend"`
	Normalizers        []normalizerSpec  `json:"normalizers"`
}

// orDefault returns *p, or def when the setting is absent (null).
func orDefault(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

// build returns the normaliser the spec describes.
func (sp normalizerSpec) build() (textNormalizer, error) {
	switch sp.Type {
	case "BertNormalizer":
		lower := orDefault(sp.Lowercase, true)
		return bertNormalizer(orDefault(sp.CleanText, true), orDefault(sp.HandleChineseChars, true),
			orDefault(sp.StripAccents, lower), lower), nil
	case "StripAccents":
		return func(s string) string {
			return strings.Map(func(r rune) rune {
				if unicode.Is(unicode.Mn, r) {
					return -1
				}
				return r
			}, s)
		}, nil
	case "NFC":
		return norm.NFC.String, nil
	case "NFD":
		return norm.NFD.String, nil
	case "NFKC":
		return norm.NFKC.String, nil
	case "NFKD":
		return norm.NFKD.String, nil
	case "Lowercase":
		return strings.ToLower, nil
	case "Strip", "StripNormalizer":
		left, right := sp.StripLeft, sp.StripRight
		return func(s string) string {
			if left {
				s = strings.TrimLeftFunc(s, unicode.IsSpace)
			}
			if right {
				s = strings.TrimRightFunc(s, unicode.IsSpace)
			}
			return s
		}, nil
	case "Prepend":
		p := sp.Prepend
		return func(s string) string {
			if s == "" {
				return s
			}
			return p + s
		}, nil
	case "Replace":
		content := sp.Content
		if lit, ok := sp.Pattern["String"]; ok {
			return func(s string) string { return strings.ReplaceAll(s, lit, content) }, nil
		}
		if expr, ok := sp.Pattern["Regex"]; ok {
			re, err := regexp.Compile(expr)
			if err != nil {
				return nil, fmt.Errorf("Replace normalizer: %w", err)
			}
			return func(s string) string { return re.ReplaceAllLiteralString(s, content) }, nil
		}
		return nil, fmt.Errorf("Replace normalizer without a String or Regex pattern")
	case "Sequence":
		var steps []textNormalizer
		for _, sub := range sp.Normalizers {
			n, err := sub.build()
			if err != nil {
				return nil, err
			}
			steps = append(steps, n)
		}
		return func(s string) string {
			for _, n := range steps {
				s = n(s)
			}
			return s
		}, nil
	}
	return nil, fmt.Errorf("normalizer type %q is not supported (supported: BertNormalizer, NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, Strip, Replace, Prepend, Sequence)", sp.Type)
}

// fileNormalizer reads the "normalizer" of a tokenizer.json: nil when the
// file has none.
func fileNormalizer(path string) (textNormalizer, error) {
	raw, err := fsx.ReadFile(path, fsx.MaxInput)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Normalizer *normalizerSpec `json:"normalizer"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	if doc.Normalizer == nil {
		return nil, nil
	}
	return doc.Normalizer.build()
}
