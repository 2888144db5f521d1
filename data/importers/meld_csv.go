package importers

import (
	"bufio"
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
)

func init() {
	Register("meld-csv", meldFormat{})
}

// meldFormat reads MELD's CSVs, its Dyadic variant and the EmoryNLP CSV.
// It is its own Importer, not a FileFormat, because MELD_Dyadic re-uses
// MELD's utterances: the import keeps one set of utterance keys across
// its files and reads the plain files before the Dyadic ones.
type meldFormat struct{}

// Describe says what the format reads.
func (meldFormat) Describe() string {
	return "MELD CSV (Utterance, Speaker, Dialogue_ID, Utterance_ID, Season, Episode, StartTime, EndTime), " +
		"MELD_Dyadic (with Old_Dialogue_ID, Old_Utterance_ID: mapped back to MELD, each utterance counted once) " +
		"and the EmoryNLP emotion CSV (Speaker as a Python list, Scene_ID); source \"friends\", " +
		"one dialogue or scene = one conversation"
}

// Match accepts CSV files.
func (meldFormat) Match(path string) bool { return hasExt(path, ".csv") }

// Params lists no settings.
func (meldFormat) Params() []Param { return nil }

// Read reads the plain MELD and EmoryNLP files first, then the Dyadic
// ones, each in the given order, so a Dyadic row whose MELD utterance was
// read is a duplicate whichever order the paths came in.
func (meldFormat) Read(ctx context.Context, files []string, opts Options, c *Collector) error {
	var plain, dyadic []string
	for _, f := range files {
		if meldIsDyadic(f) {
			dyadic = append(dyadic, f)
		} else {
			plain = append(plain, f)
		}
	}
	seen := map[meldKey]bool{}
	for i, path := range append(plain, dyadic...) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := readMELD(ctx, path, opts, c, seen); err != nil {
			return err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(files))
		}
	}
	return nil
}

// meldIsDyadic reports whether path's header has Old_Dialogue_ID. An
// unreadable file is taken as plain; readMELD reports it.
func meldIsDyadic(path string) bool {
	f, err := fsx.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	line, _ := bufio.NewReaderSize(f, 4096).ReadString('\n')
	return strings.Contains(strings.ToLower(line), strings.ToLower(meldOldDialog))
}

const (
	meldExpect    = "a MELD CSV (columns Utterance, Speaker, Dialogue_ID, Season, Episode) or an EmoryNLP CSV (Utterance, Speaker, Scene_ID, Season, Episode)"
	meldDialog    = "Dialogue_ID"
	meldOldDialog = "Old_Dialogue_ID"
	emorySceneC   = "Scene_ID"
)

// meldKey names one MELD utterance: its split file's stem
// ("train_sent_emo"), dialogue and utterance number.
type meldKey struct {
	split              string
	dialog, utterances int
}

// meldRow is one parsed row, held back for Dyadic files until the file is
// read (see readMELD).
type meldRow struct {
	line     Line
	speakers []string
	key      meldKey
	keyed    bool
}

// readMELD reads one split file of any variant, told apart by the
// header: MELD has Dialogue_ID (numbered per split file, so the
// conversation ID is "<file stem>-d<N>": "train_sent_emo-d12"), the EmoryNLP
// variant has Scene_ID numbered per episode (conversation
// "s01e15-c01"). Times ("00:20:57,256" or "00:00:03.795") become
// start_s/end_s relative to the episode.
//
// MELD_Dyadic ("train_sent_emo_dya.csv") cuts MELD's dialogues into
// two-speaker pieces and re-uses their utterances under new ids, one MELD
// utterance appearing in up to five pieces; Old_Dialogue_ID and
// Old_Utterance_ID point back. Its rows are mapped back to MELD: the
// conversation is the MELD dialogue ("train_sent_emo-d12", the split named
// by the file stem without "_dya"), turns in Old_Utterance_ID order, and
// a row whose MELD utterance was already read, from MELD or another
// piece, is dropped as duplicate_row. So MELD and Dyadic read together
// count each utterance once, and Dyadic alone gives MELD's dialogues
// (those it covers) without repeats; the dyadic piece structure is not
// kept.
func readMELD(ctx context.Context, path string, opts Options, c *Collector, seen map[meldKey]bool) error {
	enc, err := resolveEncoding(opts.Encoding, UTF8)
	if err != nil {
		return err
	}
	source := opts.SourceOr("friends")
	variant := ""
	var held []meldRow
	rows := 0
	err = scanCSV(ctx, path, enc, ',', []string{"Utterance", "Speaker", "Season", "Episode"}, meldExpect, func(r csvRow) error {
		if variant == "" {
			switch {
			case r.Has(meldOldDialog) && r.Has("Old_Utterance_ID"):
				variant = meldOldDialog
			case r.Has(meldDialog):
				variant = meldDialog
			case r.Has(emorySceneC):
				variant = emorySceneC
			default:
				return Errorf(Pos{File: path, Line: 1}, "missing column Dialogue_ID or Scene_ID; expected %s", meldExpect)
			}
		}
		rows++
		season, err1 := strconv.Atoi(strings.TrimSpace(r.Get("Season")))
		episode, err2 := strconv.Atoi(strings.TrimSpace(r.Get("Episode")))
		convCol := variant
		conv, err3 := strconv.Atoi(strings.TrimSpace(r.Get(convCol)))
		if err1 != nil || err2 != nil || err3 != nil {
			return r.errorf("Season %q, Episode %q and %s %q must be whole numbers", r.Get("Season"), r.Get("Episode"), convCol, r.Get(convCol))
		}
		row := meldRow{line: Line{Source: source, Episode: fmt.Sprintf("s%02de%02d", season, episode), Text: r.Get("Utterance"), Pos: r.Pos}}
		l := &row.line
		switch variant {
		case meldDialog, meldOldDialog:
			uttCol := "Utterance_ID"
			split := stem(path)
			if variant == meldOldDialog {
				uttCol = "Old_Utterance_ID"
				split = strings.TrimSuffix(split, "_dya")
			}
			l.ConversationID = fmt.Sprintf("%s-d%d", split, conv)
			if u, err := strconv.Atoi(strings.TrimSpace(r.Get(uttCol))); err == nil {
				row.key, row.keyed = meldKey{split, conv, u}, true
			} else if variant == meldOldDialog {
				return r.errorf("%s %q must be a whole number", uttCol, r.Get(uttCol))
			}
		default:
			l.ConversationID = fmt.Sprintf("%s-c%02d", l.Episode, conv)
		}
		l.StartS = parseClock(r.Get("StartTime") + r.Get("Start_Time"))
		l.EndS = parseClock(r.Get("EndTime") + r.Get("End_Time"))
		speakers, err := parseSpeakerList(r.Get("Speaker"))
		if err != nil {
			return r.errorf("column Speaker: %v", err)
		}
		row.speakers = speakers
		if variant == meldOldDialog {
			held = append(held, row)
			return nil
		}
		meldAdd(c, row, seen)
		return nil
	})
	if err != nil {
		return err
	}
	if rows > 0 {
		c.MarkRead(path) // read, even when every row repeats one read before
	}
	// Dyadic rows: MELD dialogues in order of first appearance, turns in
	// MELD's utterance order.
	first := map[string]int{}
	for i, r := range held {
		if _, ok := first[r.line.ConversationID]; !ok {
			first[r.line.ConversationID] = i
		}
	}
	sort.SliceStable(held, func(i, j int) bool {
		a, b := held[i], held[j]
		if fa, fb := first[a.line.ConversationID], first[b.line.ConversationID]; fa != fb {
			return fa < fb
		}
		return a.key.utterances < b.key.utterances
	})
	for _, r := range held {
		meldAdd(c, r, seen)
	}
	return nil
}

// meldAdd adds one row, or drops it: a repeat of an utterance already
// read (duplicate_row), no speaker, several speakers.
func meldAdd(c *Collector, r meldRow, seen map[meldKey]bool) {
	if r.keyed {
		if seen[r.key] {
			c.Drop(Line{Pos: r.line.Pos}, DropDuplicateRow)
			return
		}
		seen[r.key] = true
	}
	switch len(r.speakers) {
	case 0:
		c.Drop(r.line, DropNoSpeaker)
	case 1:
		r.line.Speaker = r.speakers[0]
		c.Add(r.line)
	default:
		c.Drop(r.line, DropMultipleSpeakers)
	}
}

// clockRe matches "HH:MM:SS,mmm" and "HH:MM:SS.mmm".
var clockRe = regexp.MustCompile(`^\s*(\d+):(\d{1,2}):(\d{1,2})(?:[.,](\d+))?\s*$`)

// parseClock converts a subtitle clock to seconds, or nil when s is not
// one.
func parseClock(s string) *float64 {
	m := clockRe.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	se, _ := strconv.Atoi(m[3])
	v := float64(h*3600 + mi*60 + se)
	if m[4] != "" {
		frac, _ := strconv.ParseFloat("0."+m[4], 64)
		v += frac
	}
	return &v
}

// parseSpeakerList reads a Speaker cell: a plain name ("Monica"), or a
// Python list literal of quoted names ("['Ross Geller', 'Joey Tribbiani']",
// with either quote and backslash escapes). Empty names are skipped.
func parseSpeakerList(s string) ([]string, error) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "[") {
		if t == "" {
			return nil, nil
		}
		return []string{t}, nil
	}
	if !strings.HasSuffix(t, "]") {
		return nil, fmt.Errorf("%q: list without closing ']', expected a list like ['Ross Geller']", s)
	}
	body := []rune(t[1 : len(t)-1])
	var out []string
	for i := 0; i < len(body); {
		switch r := body[i]; {
		case r == ' ' || r == ',' || r == '\t':
			i++
		case r == '\'' || r == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(body) && body[j] != r; j++ {
				if body[j] == '\\' && j+1 < len(body) {
					j++
				}
				b.WriteRune(body[j])
			}
			if j >= len(body) {
				return nil, fmt.Errorf("%q: unterminated quoted name", s)
			}
			if name := strings.TrimSpace(b.String()); name != "" {
				out = append(out, name)
			}
			i = j + 1
		default:
			return nil, fmt.Errorf("%q: unexpected %q, expected quoted names like ['Ross Geller']", s, r)
		}
	}
	return out, nil
}
