package distill

import "strings"

// StyleRow is one character's linguistic style as table cells.
type StyleRow struct {
	Character    string `json:"character"`
	Phrases      string `json:"distinctive phrases"`
	Catchphrases string `json:"catchphrases"`
	Openers      string `json:"openers"`
}

// StyleRows returns r's styles as table rows (phrases and catchphrases
// joined by "; ", openers by ", "), in r's order.
func (r *Result) StyleRows() []StyleRow {
	out := make([]StyleRow, 0, len(r.Styles))
	for _, s := range r.Styles {
		out = append(out, StyleRow{Character: s.Character, Phrases: strings.Join(s.Phrases, "; "),
			Catchphrases: strings.Join(s.Catchphrases, "; "), Openers: strings.Join(s.Openers, ", ")})
	}
	return out
}

// PersonaOf returns the persona of character, and whether r has one.
func (r *Result) PersonaOf(character string) (Persona, bool) {
	for _, p := range r.Personas {
		if p.Character == character {
			return p, true
		}
	}
	return Persona{}, false
}

// Prompts maps each character to its persona prompt.
func (r *Result) Prompts() map[string]string {
	out := make(map[string]string, len(r.Personas))
	for _, p := range r.Personas {
		out[p.Character] = p.Prompt
	}
	return out
}
