package importers

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

func init() {
	Register("tbbt", &FileFormat{
		Description: "The Big Bang Theory transcripts (TBBTCorpus raw_corpus/S_E.txt): `Scene: ...` lines, then " +
			"`Speaker: text` lines; source \"tbbt\", one scene = one conversation",
		Extensions: []string{".txt"},
		ReadFile:   readTBBT,
	})
}

// tbbtSceneRe matches a scene heading, including the corpus's typos.
var tbbtSceneRe = regexp.MustCompile(`(?i)^\s*(?:scene|sceme|secne|scne)\s*:\s*(.*)$`)

// tbbtEpisodeRe reads season and episode from a file name like "2_14".
var tbbtEpisodeRe = regexp.MustCompile(`^(\d+)_(\d+)$`)

// episodeFromStem names an episode "s02e14" from a file stem "2_14",
// or keeps the stem when it has another form.
func tbbtEpisode(path string) string {
	st := stem(path)
	if m := tbbtEpisodeRe.FindStringSubmatch(st); m != nil {
		s, _ := strconv.Atoi(m[1])
		e, _ := strconv.Atoi(m[2])
		return fmt.Sprintf("s%02de%02d", s, e)
	}
	return st
}

// readTBBT reads one episode. Conversation IDs are "<episode>-c<NN>",
// scenes numbered from 1; lines before the first heading form scene 0.
func readTBBT(ctx context.Context, path string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, UTF8)
	if err != nil {
		return err
	}
	source := opts.SourceOr("tbbt")
	episode := tbbtEpisode(path)
	scene, heading := 0, ""
	return scanLines(ctx, path, enc, "a TBBT transcript (Scene: lines and Speaker: text lines)", func(n int, raw string) error {
		line := strings.TrimSpace(raw)
		if line == "" {
			return nil
		}
		l := Line{Source: source, Episode: episode, Pos: Pos{File: path, Line: n}}
		if m := tbbtSceneRe.FindStringSubmatch(line); m != nil {
			scene++
			heading = collapseSpace(m[1])
			return nil
		}
		l.ConversationID = fmt.Sprintf("%s-c%02d", episode, scene)
		l.Scene = heading
		l.Text = line
		speaker, text, ok := splitSpeech(line)
		switch {
		case ok && isCredit(speaker):
			c.Drop(l, DropCredits)
		case ok:
			l.Speaker, l.Text = speaker, text
			c.Add(l)
		case isCredit(line):
			c.Drop(l, DropCredits)
		default:
			c.Drop(l, DropStageDirection)
		}
		return nil
	})
}
