package textmetrics

import "unicode"

// DedupModel is a sentence-embedding model SpeechRole deduplicates one
// language's dialogues with, and the cosine at or above which two
// dialogues are duplicates.
type DedupModel struct {
	// Language is "en" or "zh" (ScriptLanguage).
	Language string
	// Model is the Hugging Face Hub id.
	Model string
	// Threshold is the duplicate cosine.
	Threshold float64
}

// SpeechRoleDedupModels are SpeechRole's de-duplication models: MiniLM for
// English dialogues at cosine 0.9 and bge for Chinese ones at 0.85. The
// paper names the families and thresholds; the checkpoints are
// sentence-transformers' all-MiniLM-L6-v2 and BAAI's bge-small-zh-v1.5.
var SpeechRoleDedupModels = []DedupModel{
	{Language: "en", Model: "sentence-transformers/all-MiniLM-L6-v2", Threshold: 0.9},
	{Language: "zh", Model: "BAAI/bge-small-zh-v1.5", Threshold: 0.85},
}

// LexicalDedupThreshold is the duplicate cosine of the lexical dedup (the
// hash-ngram vectors, the offline fallback).
const LexicalDedupThreshold = 0.9

// DedupModelFor returns SpeechRole's model of a language ("en" or "zh").
func DedupModelFor(lang string) (DedupModel, bool) {
	for _, m := range SpeechRoleDedupModels {
		if m.Language == lang {
			return m, true
		}
	}
	return DedupModel{}, false
}

// ScriptLanguage tells SpeechRole's two languages apart by script: "zh"
// when Han characters are at least half of the text's letters, else "en"
// (a text without letters is "en").
func ScriptLanguage(text string) string {
	var han, letters int
	for _, r := range text {
		if unicode.Is(unicode.Han, r) {
			han++
			letters++
		} else if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters > 0 && 2*han >= letters {
		return "zh"
	}
	return "en"
}
