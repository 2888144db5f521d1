package script

import (
	"fmt"
	"strings"
)

// ChunkOptions bound the size of chunks. Zero fields take the defaults.
type ChunkOptions struct {
	// MaxLines is the most lines in a chunk. Default 40.
	MaxLines int `json:"max_lines"`
	// MaxWords is the most words in a chunk (a single longer line still
	// makes a chunk of its own). Default 800, a comfortable LLM prompt.
	MaxWords int `json:"max_words"`
	// Overlap is how many lines of the previous chunk of the same scene
	// are repeated at the start of the next, for context; they come on
	// top of MaxLines and MaxWords. Default 0.
	Overlap int `json:"overlap"`
}

// DefaultChunkOptions returns the documented defaults.
func DefaultChunkOptions() ChunkOptions { return ChunkOptions{MaxLines: 40, MaxWords: 800} }

func (o ChunkOptions) withDefaults() ChunkOptions {
	d := DefaultChunkOptions()
	if o.MaxLines <= 0 {
		o.MaxLines = d.MaxLines
	}
	if o.MaxWords <= 0 {
		o.MaxWords = d.MaxWords
	}
	if o.Overlap < 0 || o.Overlap >= o.MaxLines {
		o.Overlap = 0
	}
	return o
}

// Chunk is a piece of one scene small enough for one summarisation step.
type Chunk struct {
	// ID is "SCENEID#k".
	ID string `json:"id"`
	// SceneID, Source, Episode and Heading come from the scene.
	SceneID string `json:"scene_id"`
	Source  string `json:"source,omitempty"`
	Episode string `json:"episode,omitempty"`
	Heading string `json:"heading,omitempty"`
	// Index is the chunk's position in the scene (0-based) and Of the
	// number of chunks of the scene.
	Index int `json:"index"`
	Of    int `json:"of"`
	// Lines are the chunk's lines (overlap lines included).
	Lines []Line `json:"lines"`
}

// Speakers returns the chunk's speakers (no narration) in order of first
// line.
func (c *Chunk) Speakers() []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range c.Lines {
		if !l.IsNarration() && !seen[l.Speaker] {
			seen[l.Speaker] = true
			out = append(out, l.Speaker)
		}
	}
	return out
}

// Text renders the chunk as "Speaker: text" lines, narration in
// parentheses, headed by the scene heading when there is one.
func (c *Chunk) Text() string {
	var b strings.Builder
	if c.Heading != "" {
		fmt.Fprintf(&b, "[Scene: %s]\n", c.Heading)
	}
	for _, l := range c.Lines {
		if l.IsNarration() {
			fmt.Fprintf(&b, "(%s)\n", l.Text)
		} else {
			fmt.Fprintf(&b, "%s: %s\n", l.Speaker, l.Text)
		}
	}
	return b.String()
}

// ChunkScene cuts a scene into chunks of at most MaxLines lines and
// MaxWords words, at line boundaries. A scene that fits is one chunk.
func ChunkScene(sc Scene, opts ChunkOptions) []Chunk {
	opts = opts.withDefaults()
	var groups [][]Line
	start := 0
	for start < len(sc.Lines) {
		words, end := 0, start
		for end < len(sc.Lines) && end-start < opts.MaxLines {
			w := len(strings.Fields(sc.Lines[end].Text))
			if end > start && words+w > opts.MaxWords {
				break
			}
			words += w
			end++
		}
		from := start
		if len(groups) > 0 {
			from = max(0, start-opts.Overlap)
		}
		groups = append(groups, sc.Lines[from:end])
		start = end
	}
	out := make([]Chunk, len(groups))
	for i, g := range groups {
		out[i] = Chunk{
			ID: fmt.Sprintf("%s#%d", sc.ID, i), SceneID: sc.ID, Source: sc.Source, Episode: sc.Episode,
			Heading: sc.Heading, Index: i, Of: len(groups), Lines: g,
		}
	}
	return out
}

// Chunks cuts every scene of the script.
func (s *Script) Chunks(opts ChunkOptions) []Chunk {
	var out []Chunk
	for _, sc := range s.Scenes {
		out = append(out, ChunkScene(sc, opts)...)
	}
	return out
}
