package importers

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func init() {
	Register("lines", &linesFormat{FileFormat{
		Description: "your own delimited table, one line per row, with a header: any extension; the separator " +
			"(comma, tab, semicolon, bar or space), the quoting (\"\" or \\\") and a row-name column (a header one field " +
			"shorter, as R's write.table writes) are read from the content; --map field=column names the columns (fields: " +
			strings.Join(lineFields, ", ") + ")",
		Extensions: []string{".csv", ".tsv", ".tab"},
		Parameters: []Param{
			{Name: "delimiter", Default: "", Doc: "field separator: tab, space, \",\", \";\" or \"|\"; empty or auto = read from the content"},
			{Name: "normalize", Default: "true", Doc: "\"true\" applies the speaker and text rules of every importer; " +
				"\"false\" keeps speakers as IDs (trimmed) and text as written"},
			{Name: "scenes", Default: "column", Doc: "what starts a conversation: \"column\" (the conversation column, else " +
				"the whole file is one), \"headings\" (also a scene-heading row: a speaker cell empty or \"Scene\" and a text " +
				"of INT./EXT./I/E., Scene: or [Scene: ...]; ids <conversation>#sK) or \"blank\" (also a blank line between rows; " +
				"ids <conversation>#sK); import --scenes sets it"},
			{Name: "scene_lines", Default: "0", Doc: "N > 1 cuts every conversation into consecutive windows of N kept " +
				"utterances, whoever speaks (pseudo-scenes for a script without scene marks; ids <conversation>#wK, K from 1; " +
				"the last window may be shorter); 0 = off; import --scene-lines sets it"},
		},
		ReadFile: readLines,
	}})
}

// linesFormat is the lines format: a FileFormat that also takes, while
// walking a folder, files of any extension whose content is a delimited
// table (R's write.table output is often saved as .txt).
type linesFormat struct{ FileFormat }

// Match accepts .csv, .tsv and .tab files, and any file whose start reads
// as a delimited table.
func (f *linesFormat) Match(path string) bool {
	return f.FileFormat.Match(path) || isTableFile(path)
}

// parseDelimiter reads the delimiter setting: 0 means read it from the
// content.
func parseDelimiter(d string) (rune, error) {
	switch strings.ToLower(d) {
	case "", "auto":
		return 0, nil
	case "tab", "\\t", "\t":
		return '\t', nil
	case "space", " ":
		return ' ', nil
	case ",", ";", "|":
		return rune(d[0]), nil
	}
	return 0, fmt.Errorf("lines: setting delimiter=%q: expected tab, space, \",\", \";\", \"|\" or auto", d)
}

// lineFields are the utterance fields a lines table can fill, in the
// order the help lists them.
var lineFields = []string{"speaker", "text", "conversation", "source", "episode", "scene",
	"start_s", "end_s", "audio_path", "agent_model", "role"}

// lineDefaults are the columns looked for when --map does not name one;
// the first present wins.
var lineDefaults = map[string][]string{
	"speaker": {"speaker"}, "text": {"text", "utterance"}, "conversation": {"conversation_id", "conversation"},
	"source": {"source"}, "episode": {"episode"}, "scene": {"scene"}, "start_s": {"start_s", "start"},
	"end_s": {"end_s", "end"}, "audio_path": {"audio_path", "audio"}, "agent_model": {"agent_model"}, "role": {"role"},
}

// readLines reads one delimited table of any extension, its dialect
// (separator, quoting, a row-name column) read from its content
// (scanTable) unless the delimiter setting fixes the separator. speaker
// and text are required columns: named with --map, else by the default
// names ("speaker", "text"), else the columns whose content looks like
// speakers and text (guessLineColumns), with a note saying which; without a conversation column the whole file is one
// conversation named after the file; without a source column the source
// is Options.Source, else the file name without extension. The scenes
// setting also cuts conversations at scene-heading rows or blank lines
// (lineScenes), and scene_lines into windows of that many kept utterances
// (linesSegmentation states the rule). Rows keep file order as turns.
// start_s/end_s must be numbers of seconds when present.
func readLines(ctx context.Context, path string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, UTF8)
	if err != nil {
		return err
	}
	for f := range opts.Columns {
		if !slices.Contains(lineFields, f) {
			return fmt.Errorf("lines: --map names unknown field %q (fields: %s)", f, strings.Join(lineFields, ", "))
		}
	}
	comma, err := parseDelimiter(opts.Param("delimiter", ""))
	if err != nil {
		return err
	}
	normalize, err := strconv.ParseBool(opts.Param("normalize", "true"))
	if err != nil {
		return fmt.Errorf("lines: setting normalize=%q: expected true or false", opts.Param("normalize", "true"))
	}
	seg, err := linesSegmentation(opts)
	if err != nil {
		return err
	}
	sc := &lineScenes{seg: seg, kept: map[string]int{}}
	var (
		heading      string // the scene heading in force (scenes=headings)
		headings     int    // heading rows seen
		firstHeading Pos
		gaps         int // blank-line gaps seen
	)
	var cols map[string]string // field → column, resolved on the first row
	expect := "a table with a header naming at least the speaker and text columns (see --map)"
	// Every column named with --map must exist.
	var required []string
	for _, col := range opts.Columns {
		if col != "" && !slices.Contains(required, col) {
			required = append(required, col)
		}
	}
	slices.Sort(required)
	err = scanTable(ctx, path, enc, comma, required, expect, opts.logf, func(r csvRow) error {
		if cols == nil {
			cols = map[string]string{}
			for _, f := range lineFields {
				if col, ok := opts.Columns[f]; ok {
					cols[f] = col
					continue
				}
				for _, cand := range lineDefaults[f] {
					if r.Has(cand) {
						cols[f] = cand
						break
					}
				}
			}
			if cols["speaker"] == "" || cols["text"] == "" {
				// The header names neither as the format looks for by
				// default: take the columns the content shows (short
				// names that repeat, long distinct lines), saying so.
				if head, ok := tableHead(path, sampleBytes); ok {
					if lc, ok := guessLineColumns(head); ok && !lc.Defaults {
						var guessed []string
						for f, col := range map[string]string{"speaker": lc.Speaker, "text": lc.Text} {
							if cols[f] == "" && !slices.Contains(slices.Collect(maps.Values(cols)), col) {
								cols[f] = col
								guessed = append(guessed, f+"="+col)
							}
						}
						slices.Sort(guessed)
						if len(guessed) > 0 {
							opts.logf("%s: no speaker/text column named in the header; by their content %s (short names that repeat, long distinct lines); pass --map to choose others",
								path, strings.Join(guessed, ", "))
						}
					}
				}
			}
			for _, f := range []string{"speaker", "text"} {
				if cols[f] == "" {
					return Errorf(Pos{File: path, Line: 1}, "no %s column (looked for %s, and none looks like one by its content); name it with --map %s=COLUMN",
						f, strings.Join(lineDefaults[f], ", "), f)
				}
			}
			opts.logf("%s: columns %v", path, fmtColumns(cols))
		}
		get := func(f string) string {
			if col := cols[f]; col != "" {
				return strings.TrimSpace(r.Get(col))
			}
			return ""
		}
		if h, ok := headingRow(get("speaker"), r.Get(cols["text"])); ok {
			if headings == 0 {
				firstHeading = r.Pos
			}
			headings++
			if seg.Scenes == ScenesHeadings {
				sc.scene++
				heading = h
				return nil // a heading is not an utterance
			}
		}
		if r.AfterBlank {
			gaps++
			if seg.Scenes == ScenesBlank {
				sc.scene++
			}
		}
		l := Line{
			Source: get("source"), ConversationID: get("conversation"), Episode: get("episode"), Scene: get("scene"),
			Speaker: get("speaker"), Text: r.Get(cols["text"]), AudioPath: get("audio_path"),
			AgentModel: get("agent_model"), Role: get("role"), Pos: r.Pos,
			SpeakerIsID: !normalize, KeepText: !normalize,
		}
		if l.Source == "" {
			l.Source = opts.SourceOr(stem(path))
		}
		if l.ConversationID == "" {
			if cols["conversation"] != "" {
				return r.errorf("empty %s column; expected a conversation ID", cols["conversation"])
			}
			l.ConversationID = stem(path)
		}
		if l.Scene == "" && seg.Scenes == ScenesHeadings {
			l.Scene = heading
		}
		var key string
		l.ConversationID, key = sc.conversation(l.ConversationID)
		for _, f := range []string{"start_s", "end_s"} {
			if v := get(f); v != "" {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					if x := parseClock(v); x != nil {
						setTime(&l, f, *x)
						continue
					}
					return r.errorf("column %s = %q: expected seconds (12.5) or a clock (00:01:02.5)", cols[f], v)
				}
				setTime(&l, f, x)
			}
		}
		if c.Add(l) {
			sc.kept[key]++
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case seg.Scenes == ScenesHeadings:
		opts.logf("%s: %d scene headings start conversations", path, headings)
	case seg.Scenes == ScenesBlank:
		opts.logf("%s: %d blank-line gaps start conversations", path, gaps)
	case headings > 0:
		opts.logf("%s: %d rows look like scene headings (the first at %s); --scenes headings starts a conversation at each",
			path, headings, firstHeading)
	}
	if seg.SceneLines > 0 {
		windows := 0
		for _, n := range sc.kept {
			windows += (n + seg.SceneLines - 1) / seg.SceneLines
		}
		opts.logf("%s: %d windows of %d utterances (pseudo-scenes)", path, windows, seg.SceneLines)
	}
	return nil
}

func setTime(l *Line, field string, v float64) {
	if field == "start_s" {
		l.StartS = &v
	} else {
		l.EndS = &v
	}
}

// fmtColumns renders a field → column map in field order.
func fmtColumns(cols map[string]string) string {
	var parts []string
	for _, f := range slices.Sorted(maps.Keys(cols)) {
		parts = append(parts, f+"="+cols[f])
	}
	return strings.Join(parts, ",")
}

// Scene-mark rules of the lines format (setting scenes).
const (
	// ScenesColumn: the conversation column, else the whole file, is one
	// conversation (the default).
	ScenesColumn = "column"
	// ScenesHeadings: a scene-heading row also starts a conversation.
	ScenesHeadings = "headings"
	// ScenesBlank: a blank line between two rows also starts one.
	ScenesBlank = "blank"
)

// MinSceneLines is the shortest window the scene_lines setting accepts: a
// window of one line would make every line its own conversation.
const MinSceneLines = 2

// Segmentation validates the scenes and scene_lines settings and states
// the rule they make (Segmenter).
func (f *linesFormat) Segmentation(opts Options) (*Segmentation, error) {
	return linesSegmentation(opts)
}

func linesSegmentation(opts Options) (*Segmentation, error) {
	seg := &Segmentation{Scenes: strings.ToLower(strings.TrimSpace(opts.Param("scenes", ScenesColumn)))}
	switch seg.Scenes {
	case "", ScenesColumn:
		seg.Scenes = ScenesColumn
	case ScenesHeadings, ScenesBlank:
	default:
		return nil, fmt.Errorf("lines: setting scenes=%q: expected %s, %s or %s", opts.Param("scenes", ""),
			ScenesColumn, ScenesHeadings, ScenesBlank)
	}
	raw := strings.TrimSpace(opts.Param("scene_lines", "0"))
	n, err := strconv.Atoi(raw)
	switch {
	case err != nil:
		return nil, fmt.Errorf("lines: setting scene_lines=%q: expected a whole number of lines (%d or more; 0 = off)", raw, MinSceneLines)
	case n < 0 || n == 1:
		return nil, fmt.Errorf("lines: setting scene_lines=%d: expected %d or more lines a window (0 = off)", n, MinSceneLines)
	}
	seg.SceneLines = n
	rule := "the conversation column, else each file, is one conversation"
	switch seg.Scenes {
	case ScenesHeadings:
		rule += ", cut at scene-heading rows (INT./EXT./I/E., Scene:, [Scene: ...]; ids <conversation>#sK, #s0 before the first)"
	case ScenesBlank:
		rule += ", cut at blank lines between rows (ids <conversation>#sK, #s0 before the first)"
	}
	if n > 0 {
		rule += fmt.Sprintf("; each cut into consecutive windows of %d kept utterances, whoever speaks "+
			"(pseudo-scenes, not the script's scenes; ids <conversation>#wK, K from 1, the last window shorter)", n)
	}
	seg.Rule = rule
	return seg, nil
}

// sceneHeading matches the start of a scene heading: a screenplay slug
// line (INT., EXT., INT./EXT., I/E.) in capitals, or the word Scene
// followed by a colon, a number, a closing bracket or nothing, optionally
// inside brackets ("[Scene: Central Perk]").
var sceneHeading = regexp.MustCompile(`^(?:\[\s*)?(?:(?:INT|EXT)\.?\s*/\s*(?:INT|EXT)\.|INT\.|EXT\.|I/E[.\s]|(?i:scene)(?:\s*[:.\-]|\s+\d|\s*\]|\s*$))`)

// headingRow reports whether a row with speaker cell speaker and text
// cell text is a scene heading, and returns the heading: a row whose
// speaker is "Scene" (a "Scene: place" line split at the colon), or whose
// speaker is empty and whose text is a heading, or whose text is empty and
// whose speaker cell is one.
func headingRow(speaker, text string) (string, bool) {
	speaker, text = strings.TrimSpace(speaker), strings.TrimSpace(text)
	switch {
	case strings.EqualFold(speaker, "scene"):
		return strings.TrimSpace("Scene: " + text), true
	case speaker == "" && sceneHeading.MatchString(text):
		return text, true
	case text == "" && sceneHeading.MatchString(speaker):
		return speaker, true
	}
	return "", false
}

// lineScenes cuts one file's rows into conversations by a Segmentation:
// scene marks (headings, blank lines) number the file's scenes, windows
// count the utterances kept in each conversation.
type lineScenes struct {
	seg   *Segmentation
	scene int            // scene marks met so far in the file
	kept  map[string]int // utterances kept per conversation before windows
}

// conversation returns the conversation ID of a row of conversation base
// (the column's value, or the file's name) and the key its window is
// counted under: base with its scene number; the window is counted on the
// utterances already kept under that key.
func (s *lineScenes) conversation(base string) (id, key string) {
	key = base
	if s.seg.Scenes != ScenesColumn {
		key += "#s" + strconv.Itoa(s.scene)
	}
	if s.seg.SceneLines == 0 {
		return key, key
	}
	return key + "#w" + strconv.Itoa(s.kept[key]/s.seg.SceneLines+1), key
}
