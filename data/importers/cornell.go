package importers

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

func init() {
	Register("cornell", cornell{})
}

// cornell reads the Cornell Movie-Dialogs Corpus: movie_lines.txt and
// movie_conversations.txt (required), movie_titles_metadata.txt and
// movie_characters_metadata.txt (optional), fields separated by
// " +++$+++ ", Latin-1.
//
// Conversations are built as the seed paper's code does: the corpus's
// short exchanges (movie_conversations.txt, in file order) are chained
// while each one starts at the line ID following the previous one's last
// line (L198 after L197) within one movie, and a chain is kept when it has
// more than 10 turns (setting min_turns, counted before markup lines are
// removed); lines of shorter chains count as dropped: short_conversation.
// Lines containing markup ("</") are dropped: markup. Unlike that code,
// the last chain of the file is kept too.
//
// The source is "cornell/<movie title and year slug>"
// ("cornell/10-things-i-hate-about-you-1999"; "cornell/m0" without the
// titles file): character names are
// per movie (two films' "JOHN" are two people), exactly as Shakespeare's
// speakers are per play. The conversation ID is the chain's first line ID.
type cornell struct{}

const cornellSep = " +++$+++ "

// Describe implements Importer.
func (cornell) Describe() string {
	return "Cornell Movie-Dialogs (movie_lines.txt + movie_conversations.txt [+ movie_titles_metadata.txt, " +
		"movie_characters_metadata.txt]; ` +++$+++ `-separated, Latin-1); source \"cornell/<movie>\", " +
		"chained exchanges of > 10 turns = conversations"
}

// Match implements Importer.
func (cornell) Match(path string) bool {
	switch strings.ToLower(baseName(path)) {
	case "movie_lines.txt", "movie_conversations.txt", "movie_titles_metadata.txt", "movie_characters_metadata.txt":
		return true
	}
	return false
}

// Params implements Importer.
func (cornell) Params() []Param {
	return []Param{{Name: "min_turns", Default: "11",
		Doc: "fewest turns a chained conversation needs to be kept (the paper keeps chains of more than 10)"}}
}

type cornellLine struct {
	char, movie, name, text string
	pos                     Pos
}

// Read implements Importer.
func (cornell) Read(ctx context.Context, files []string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, Latin1)
	if err != nil {
		return err
	}
	minTurns, err := strconv.Atoi(opts.Param("min_turns", "11"))
	if err != nil || minTurns < 1 {
		return fmt.Errorf("cornell: setting min_turns=%q: expected a whole number ≥ 1", opts.Param("min_turns", "11"))
	}
	byName := map[string]string{}
	var read []string
	for _, f := range files {
		name := strings.ToLower(baseName(f))
		if !(cornell{}).Match(f) {
			// The release folder also holds README.txt and
			// raw_script_urls.txt; a glob over it names them.
			c.Skip(f, cornellSkipReason(name))
			continue
		}
		read = append(read, f)
		if prev, dup := byName[name]; dup {
			return Errorf(Pos{File: f}, "second %s (first: %s); give one copy of the corpus", name, prev)
		}
		byName[name] = f
	}
	linesPath, convPath := byName["movie_lines.txt"], byName["movie_conversations.txt"]
	if linesPath == "" || convPath == "" {
		return fmt.Errorf("cornell: need both movie_lines.txt and movie_conversations.txt (got %s)", strings.Join(files, ", "))
	}
	// fields reads a +++$+++ file, checking the field count.
	fields := func(path string, n int, expect string, fn func(f []string, pos Pos) error) error {
		return scanLines(ctx, path, enc, expect, func(ln int, line string) error {
			if strings.TrimSpace(line) == "" {
				return nil
			}
			f := strings.Split(line, cornellSep)
			if len(f) != n {
				return Errorf(Pos{File: path, Line: ln}, "%d fields, expected %s", len(f), expect)
			}
			for i := range f {
				f[i] = strings.TrimSpace(f[i])
			}
			return fn(f, Pos{File: path, Line: ln})
		})
	}
	titles := map[string][2]string{} // movie ID → title, year
	if p := byName["movie_titles_metadata.txt"]; p != "" {
		err := fields(p, 6, "6 fields: movieID +++$+++ title +++$+++ year +++$+++ rating +++$+++ votes +++$+++ genres", func(f []string, _ Pos) error {
			titles[f[0]] = [2]string{f[1], strings.Trim(f[2], "/I")}
			return nil
		})
		if err != nil {
			return err
		}
	}
	chars := map[string]string{}
	if p := byName["movie_characters_metadata.txt"]; p != "" {
		err := fields(p, 6, "6 fields: characterID +++$+++ name +++$+++ movieID +++$+++ title +++$+++ gender +++$+++ position", func(f []string, _ Pos) error {
			chars[f[0]] = f[1]
			return nil
		})
		if err != nil {
			return err
		}
	}
	lines := map[string]cornellLine{}
	err = fields(linesPath, 5, "5 fields: lineID +++$+++ characterID +++$+++ movieID +++$+++ name +++$+++ text", func(f []string, pos Pos) error {
		name := f[3]
		if name == "" {
			name = chars[f[1]]
		}
		lines[f[0]] = cornellLine{char: f[1], movie: f[2], name: name, text: f[4], pos: pos}
		return nil
	})
	if err != nil {
		return err
	}
	if opts.Progress != nil {
		opts.Progress(1, 2)
	}
	// source returns a movie's source name and its title for Episode.
	source := func(movie string) (string, string) {
		t, ok := titles[movie]
		if !ok || slug(t[0]) == "" {
			return opts.SourceOr("cornell") + "/" + movie, ""
		}
		// The year keeps remakes apart ("the-mummy-1932", "the-mummy-1999").
		return opts.SourceOr("cornell") + "/" + slug(t[0]+" "+t[1]), fmt.Sprintf("%s (%s)", t[0], t[1])
	}
	var chain []string
	chainMovie, last := "", -2
	flush := func() {
		if len(chain) == 0 {
			return
		}
		src, title := source(chainMovie)
		for _, id := range chain {
			ln := lines[id]
			l := Line{Source: src, ConversationID: chain[0], Episode: title, Speaker: ln.name, Text: ln.text, Pos: ln.pos}
			switch {
			case len(chain) < minTurns:
				c.Drop(l, DropShortConversation)
			case strings.Contains(ln.text, "</"):
				c.Drop(l, DropMarkup)
			default:
				c.Add(l)
			}
		}
		chain = chain[:0]
	}
	err = fields(convPath, 4, "4 fields: characterID +++$+++ characterID +++$+++ movieID +++$+++ ['L1', 'L2', ...]", func(f []string, pos Pos) error {
		ids, err := parseSpeakerList(f[3])
		if err != nil || len(ids) == 0 {
			return Errorf(pos, "line list %q: expected a list like ['L194', 'L195']", f[3])
		}
		nums := make([]int, len(ids))
		for i, id := range ids {
			if _, ok := lines[id]; !ok {
				return Errorf(pos, "line ID %s is not in %s (are both files from one release?)", id, linesPath)
			}
			nums[i], err = strconv.Atoi(strings.TrimPrefix(id, "L"))
			if err != nil {
				return Errorf(pos, "line ID %q: expected L followed by a number", id)
			}
		}
		if f[2] != chainMovie || nums[0] != last+1 {
			flush()
			chainMovie = f[2]
		}
		chain = append(chain, ids...)
		last = nums[len(nums)-1]
		return nil
	})
	if err != nil {
		return err
	}
	flush()
	for _, f := range read {
		c.MarkRead(f)
	}
	if opts.Progress != nil {
		opts.Progress(2, 2)
	}
	return nil
}

// cornellSkipReason says why a file beside the corpus files is not read.
func cornellSkipReason(name string) string {
	switch {
	case strings.HasPrefix(name, "readme"):
		return "README of the release"
	case name == "raw_script_urls.txt":
		return "list of the scripts' URLs, no dialogue"
	}
	return "not a Cornell corpus file (expected movie_lines.txt, movie_conversations.txt, movie_titles_metadata.txt or movie_characters_metadata.txt)"
}
