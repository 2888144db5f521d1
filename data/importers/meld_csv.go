package importers

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

func init() {
	Register("meld-csv", &FileFormat{
		Description: "MELD CSV (Utterance, Speaker, Dialogue_ID, Utterance_ID, Season, Episode, StartTime, EndTime) " +
			"and the EmoryNLP emotion CSV (Speaker as a Python list, Scene_ID); source \"friends\", " +
			"one dialogue or scene = one conversation",
		Extensions: []string{".csv"},
		ReadFile:   readMELD,
	})
}

const (
	meldExpect  = "a MELD CSV (columns Utterance, Speaker, Dialogue_ID, Season, Episode) or an EmoryNLP CSV (Utterance, Speaker, Scene_ID, Season, Episode)"
	meldDialog  = "Dialogue_ID"
	emorySceneC = "Scene_ID"
)

// readMELD reads one split file of either variant, told apart by the
// header: MELD has Dialogue_ID (numbered per split file, so the
// conversation ID is "<file stem>-d<N>": "train_sent_emo-d12"), the EmoryNLP
// variant has Scene_ID numbered per episode (conversation
// "s01e15-c01"). Times ("00:20:57,256" or "00:00:03.795") become
// start_s/end_s relative to the episode.
func readMELD(ctx context.Context, path string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, UTF8)
	if err != nil {
		return err
	}
	source := opts.SourceOr("friends")
	variant := ""
	return scanCSV(ctx, path, enc, ',', []string{"Utterance", "Speaker", "Season", "Episode"}, meldExpect, func(r csvRow) error {
		if variant == "" {
			switch {
			case r.Has(meldDialog):
				variant = meldDialog
			case r.Has(emorySceneC):
				variant = emorySceneC
			default:
				return Errorf(Pos{File: path, Line: 1}, "missing column Dialogue_ID or Scene_ID; expected %s", meldExpect)
			}
		}
		season, err1 := strconv.Atoi(strings.TrimSpace(r.Get("Season")))
		episode, err2 := strconv.Atoi(strings.TrimSpace(r.Get("Episode")))
		conv, err3 := strconv.Atoi(strings.TrimSpace(r.Get(variant)))
		if err1 != nil || err2 != nil || err3 != nil {
			return r.errorf("Season %q, Episode %q and %s %q must be whole numbers", r.Get("Season"), r.Get("Episode"), variant, r.Get(variant))
		}
		l := Line{Source: source, Episode: fmt.Sprintf("s%02de%02d", season, episode), Text: r.Get("Utterance"), Pos: r.Pos}
		if variant == meldDialog {
			l.ConversationID = fmt.Sprintf("%s-d%d", stem(path), conv)
		} else {
			l.ConversationID = fmt.Sprintf("%s-c%02d", l.Episode, conv)
		}
		l.StartS = parseClock(r.Get("StartTime") + r.Get("Start_Time"))
		l.EndS = parseClock(r.Get("EndTime") + r.Get("End_Time"))
		speakers, err := parseSpeakerList(r.Get("Speaker"))
		if err != nil {
			return r.errorf("column Speaker: %v", err)
		}
		switch len(speakers) {
		case 0:
			c.Drop(l, DropNoSpeaker)
		case 1:
			l.Speaker = speakers[0]
			c.Add(l)
		default:
			c.Drop(l, DropMultipleSpeakers)
		}
		return nil
	})
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
