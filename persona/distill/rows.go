package distill

import (
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// EventRow is the Parquet row of events.parquet.
type EventRow struct {
	ID         string `parquet:"id,zstd"`
	SceneID    string `parquet:"scene_id,dict,zstd"`
	Episode    string `parquet:"episode,dict,zstd"`
	Heading    string `parquet:"heading,dict,zstd"`
	Characters string `parquet:"characters,zstd"` // "; "-separated
	Speakers   string `parquet:"speakers,zstd"`   // "; "-separated
	Keywords   string `parquet:"keywords,zstd"`   // "; "-separated
	Summary    string `parquet:"summary,zstd"`
	Backend    string `parquet:"backend,dict,zstd"`
}

// PersonaRow is the Parquet row of personas.parquet: one character with
// its prompt and the texts it was built from.
type PersonaRow struct {
	Character     string  `parquet:"character,dict,zstd"`
	Prompt        string  `parquet:"prompt,zstd"`
	Personality   string  `parquet:"personality,zstd"`
	Traits        string  `parquet:"traits,zstd"` // "; "-separated
	Style         string  `parquet:"style,zstd"`
	Relationships int32   `parquet:"relationships"`
	Lines         int32   `parquet:"lines"`
	Events        int32   `parquet:"events"`
	MeanWords     float64 `parquet:"mean_words"`
	Extractive    bool    `parquet:"extractive"`
	Backend       string  `parquet:"backend,dict,zstd"`
}

func join(xs []string) string { return strings.Join(xs, "; ") }

func writeParquets(dir string, r *Result) error {
	ev := make([]EventRow, len(r.Events))
	for i, e := range r.Events {
		ev[i] = EventRow{ID: e.ID, SceneID: e.SceneID, Episode: e.Episode, Heading: e.Heading, Characters: join(e.Characters),
			Speakers: join(e.Speakers), Keywords: join(e.Keywords), Summary: e.Summary, Backend: e.Backend}
	}
	if err := data.WriteParquet(filepath.Join(dir, "events.parquet"), ev); err != nil {
		return err
	}
	rels := map[string]int{}
	for _, rel := range r.Relationships {
		rels[rel.A]++
		rels[rel.B]++
	}
	pr := make([]PersonaRow, len(r.Personas))
	for i, p := range r.Personas {
		pe, st := r.Personalities[i], r.Styles[i]
		pr[i] = PersonaRow{Character: p.Character, Prompt: p.Prompt, Personality: pe.Description, Traits: join(pe.Traits),
			Style: st.Description, Relationships: int32(rels[p.Character]), Lines: int32(pe.Lines), Events: int32(pe.Events),
			MeanWords: st.Stats.MeanWords, Extractive: p.Extractive, Backend: p.Backend}
	}
	return data.WriteParquet(filepath.Join(dir, "personas.parquet"), pr)
}
