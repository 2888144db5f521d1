package importers

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds what the transcript formats written as "Speaker: text"
// lines share (tbbt, friends-html): telling speech from narration and
// credits.

// maxLabelRunes bounds a speaker label without its bracketed directions.
const maxLabelRunes = 60

// creditRe matches labels and lines that are credits or page furniture,
// not speech: "Written by: ...", "Teleplay: ...", "Like this:".
var creditRe = regexp.MustCompile(`(?i)^\s*(?:(?:written|teleplay|story|transcribed|transcriber|transcription|adjustments|additional|originally|directed|produced|edited|adapted|with minor|note|notes|like this|share this|credits?|opening (?:titles|credits)|closing credits|commercial(?: break)?|closing titles)\b|(?:the )?end\W*$)|\bby\s*$`)

// maxSpeakerWords bounds the words of a speaker label; longer "labels" are
// narration that happens to contain a colon.
const maxSpeakerWords = 6

// splitSpeech splits a transcript line into a raw speaker label and the
// spoken text. ok is false for narration: no colon, or a "label" that is
// too long, does not start with a capital letter, or reads like a
// sentence. A label made only of a bracketed direction ("(MACHINE): ...")
// yields ok with an empty speaker, which the Collector drops as
// no_speaker.
func splitSpeech(line string) (speaker, text string, ok bool) {
	colon := labelColon(line)
	if colon < 0 {
		return "", "", false
	}
	label, text := strings.TrimSpace(line[:colon]), strings.TrimSpace(line[colon+1:])
	bare := collapseSpace(removeBracketed(label))
	if bare == "" {
		if strings.HasPrefix(label, "(") || strings.HasPrefix(label, "[") {
			return "", text, true
		}
		return "", "", false
	}
	r, _ := utf8.DecodeRuneInString(bare)
	if !unicode.IsUpper(r) || len(strings.Fields(bare)) > maxSpeakerWords ||
		utf8.RuneCountInString(bare) > maxLabelRunes || strings.ContainsAny(bare, "([?!\"") {
		return "", "", false
	}
	return label, text, true
}

// labelColon returns the byte index of the first colon outside brackets,
// or -1: "Penny (to Leonard: quietly): Hi" splits after the parenthesis.
func labelColon(line string) int {
	depth := 0
	for i, r := range line {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth = max(depth-1, 0)
		case ':':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// isCredit reports whether a label or a whole line is credits or page
// furniture rather than speech or narration.
func isCredit(s string) bool { return creditRe.MatchString(collapseSpace(removeBracketed(s))) }
