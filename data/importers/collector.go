package importers

import (
	"fmt"
	"maps"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// Reasons a line is dropped, the keys of Counts.Dropped.
const (
	// DropMultipleSpeakers: the line is said by several people ("Ross and
	// Joey", "All", "Both"); it is never credited to one of them.
	DropMultipleSpeakers = "multiple_speakers"
	// DropNoSpeaker: the line has no usable speaker label.
	DropNoSpeaker = "no_speaker"
	// DropEmptyText: nothing but stage directions or punctuation is left.
	DropEmptyText = "empty_text"
	// DropStageDirection: a line of narration or stage directions with no
	// speaker ("(They all stare.)", "Credits sequence").
	DropStageDirection = "stage_direction"
	// DropCredits: header and footer lines (writers, transcribers, blog
	// footers) that look like speech.
	DropCredits = "credits"
	// DropDuplicateConversation: the conversation was already read from
	// another file (the same scene in two releases of a corpus).
	DropDuplicateConversation = "duplicate_conversation"
	// DropDuplicateRow: a row repeating one already read (AnnoMI-full
	// lists each utterance once per annotator).
	DropDuplicateRow = "duplicate_row"
	// DropMarkup: the line holds markup the format marks as unusable
	// (Cornell lines containing "</").
	DropMarkup = "markup"
	// DropShortConversation: the line belongs to a conversation shorter
	// than the format's minimum.
	DropShortConversation = "short_conversation"
	// DropUnknownSpeakerID: the line refers to a speaker ID that the
	// speaker table does not list.
	DropUnknownSpeakerID = "unknown_speaker_id"
	// DropTherapist: an AnnoMI therapist line, when therapist lines are
	// not kept (annomi setting therapist=drop).
	DropTherapist = "therapist"
	// DropRepeatedLine: a line of RepeatMinWords words or more that its
	// speaker already said, word for word, in another conversation of the
	// source: a clip show's or a season premiere's flashback, or a scene
	// a corpus repeats under another ID. Kept, it would let a test set hold
	// a training set's text.
	DropRepeatedLine = "repeated_line"
)

// RepeatMinWords is the length from which a line said again word for word
// by the same speaker in another conversation counts as a repeat
// (DropRepeatedLine); shorter lines ("Oh my God!") recur naturally.
const RepeatMinWords = 8

// Line is one raw line handed to a Collector: the importer fills in what
// the format gives; the Collector normalises the speaker and the text.
type Line struct {
	// Source and ConversationID place the line (both required).
	Source, ConversationID string
	// Episode and Scene are optional metadata.
	Episode, Scene string
	// Speaker is the raw speaker label, normalised with NormalizeSpeaker
	// unless SpeakerIsID is set.
	Speaker string
	// SpeakerIsID marks Speaker as an identifier built by the importer
	// ("client:12"): it is kept as is, only trimmed.
	SpeakerIsID bool
	// Text is the raw text; CleanText removes stage directions unless
	// KeepText is set.
	Text string
	// KeepText keeps Text as written, only trimmed (generated text, where
	// brackets may be content).
	KeepText bool
	// StartS and EndS carry over to the utterance; a reversed span is
	// dropped (the line is kept).
	StartS, EndS *float64
	// AudioPath carries over to the utterance.
	AudioPath string
	// AgentModel carries over to the utterance (generated data).
	AgentModel string
	// Role carries over to the utterance (generated data).
	Role string
	// Pos is where the line was read, for notes and duplicate detection.
	Pos Pos
}

// Collector receives the lines an Importer reads and applies the shared
// rules (see the package documentation). Import creates one per call.
type Collector struct {
	format  string
	opts    Options
	walked  map[string]bool
	convs   map[convKey]*conversation
	order   []*conversation
	dropped map[string]int
	perFile map[string]int // lines of the format per file: added (kept or not) or duplicates
	dupNote map[convKey]bool
	read    map[string]bool
	skipped []SkippedFile
	// said maps a long line (source, speaker, text) to the conversation
	// that first had it, to drop repeats (DropRepeatedLine).
	said map[[3]string]*conversation
}

type convKey struct{ source, id string }

type conversation struct {
	key  convKey
	file string
	utts []data.Utterance
}

func newCollector(format string, opts Options, walked map[string]bool) *Collector {
	return &Collector{
		format:  format,
		opts:    opts,
		walked:  walked,
		convs:   map[convKey]*conversation{},
		dropped: map[string]int{},
		perFile: map[string]int{},
		dupNote: map[convKey]bool{},
		read:    map[string]bool{},
		said:    map[[3]string]*conversation{},
	}
}

// NewCollector returns an empty Collector for tests and for importers that
// run outside Import; Result returns what it gathered.
func NewCollector(format string, opts Options) *Collector {
	return newCollector(format, opts, nil)
}

// Result returns the utterances and counts gathered so far.
func (c *Collector) Result() *Result { return c.result() }

// conversation returns l's conversation and whether l belongs to a conversation first read from
// another file; it registers the conversation's file otherwise.
func (c *Collector) conversation(l *Line) (*conversation, bool) {
	k := convKey{l.Source, l.ConversationID}
	cv, ok := c.convs[k]
	if !ok {
		cv = &conversation{key: k, file: l.Pos.File}
		c.convs[k] = cv
		c.order = append(c.order, cv)
		return cv, false
	}
	if cv.file != l.Pos.File {
		if !c.dupNote[k] {
			c.dupNote[k] = true
			c.opts.logf("%s: conversation %s/%s already read from %s; skipped", l.Pos, k.source, k.id, cv.file)
		}
		return cv, true
	}
	return cv, false
}

// Add normalises l and keeps it as an utterance, or counts it as dropped:
// multi-speaker and unusable speaker labels, text left empty by removing
// stage directions, conversations already read from another file, and
// long lines the speaker already said in another conversation (unless
// KeepText: generated text is kept as written). It
// reports whether the line was kept. Lines missing a source or a
// conversation ID are a programming error in the importer and panic.
func (c *Collector) Add(l Line) bool {
	if l.Source == "" || l.ConversationID == "" {
		panic(fmt.Sprintf("importers: %s line at %s without source or conversation ID", c.format, l.Pos))
	}
	c.perFile[l.Pos.File]++
	cv, dup := c.conversation(&l)
	if dup {
		c.dropped[DropDuplicateConversation]++
		return false
	}
	speaker := strings.TrimSpace(l.Speaker)
	if !l.SpeakerIsID {
		var reason string
		speaker, reason = normalizeSpeaker(l.Speaker)
		if reason != "" {
			c.dropped[reason]++
			return false
		}
	}
	if speaker == "" {
		c.dropped[DropNoSpeaker]++
		return false
	}
	text := strings.TrimSpace(l.Text)
	if !l.KeepText {
		text = CleanText(l.Text)
	}
	if !hasWordChar(text) {
		c.dropped[DropEmptyText]++
		return false
	}
	if !l.KeepText && len(strings.Fields(text)) >= RepeatMinWords {
		k := [3]string{l.Source, speaker, text}
		if first, ok := c.said[k]; ok && first != cv {
			c.dropped[DropRepeatedLine]++
			return false
		} else if !ok {
			c.said[k] = cv
		}
	}
	u := data.Utterance{
		Source:         l.Source,
		ConversationID: l.ConversationID,
		Episode:        l.Episode,
		Scene:          l.Scene,
		Turn:           int32(len(cv.utts)),
		Speaker:        speaker,
		Text:           text,
		StartS:         l.StartS,
		EndS:           l.EndS,
		AudioPath:      l.AudioPath,
		AgentModel:     l.AgentModel,
		Role:           l.Role,
	}
	if u.StartS != nil && u.EndS != nil && *u.EndS < *u.StartS {
		u.StartS, u.EndS = nil, nil
	}
	cv.utts = append(cv.utts, u)
	return true
}

// Drop counts l as dropped for reason (one of the Drop* constants, or a
// format's own snake_case reason). A line of a conversation already read
// from another file counts as a duplicate instead, so a corpus read twice
// reports the same reasons once.
func (c *Collector) Drop(l Line, reason string) {
	if l.Source != "" && l.ConversationID != "" {
		if _, dup := c.conversation(&l); dup {
			reason = DropDuplicateConversation
		}
	}
	if reason == DropDuplicateConversation {
		c.perFile[l.Pos.File]++
	}
	c.dropped[reason]++
}

// MarkRead records that path was read and held content of the format
// even though no line is located in it (a speaker table, a conversation
// index). Files that yield neither lines nor MarkRead fail the import when
// named explicitly.
func (c *Collector) MarkRead(path string) { c.read[path] = true }

// Skip records that path, met while walking a folder, is not part of the
// format (reason says why: "README", "zero-byte file", "backup copy"); it
// is listed in Result.Skipped and logged once. Importers call it for files
// their folder walk found but that they do not read.
func (c *Collector) Skip(path, reason string) {
	c.skipped = append(c.skipped, SkippedFile{File: path, Reason: reason})
	c.read[path] = true // accounted for: checkFiles must not fail on it
	c.opts.logf("%s: skipped (%s)", path, reason)
}

func (c *Collector) isSkipped(path string) bool {
	for _, s := range c.skipped {
		if s.File == path {
			return true
		}
	}
	return false
}

// checkFiles fails for an explicitly named file that yielded nothing of
// the format (no line passed to Add, no duplicate, no MarkRead: only
// narration, or nothing at all); files found by walking a folder are
// skipped with a note instead.
func (c *Collector) checkFiles(files []string) error {
	for _, f := range files {
		if c.perFile[f] > 0 || c.read[f] {
			continue
		}
		if c.walked[f] {
			if !c.isSkipped(f) {
				c.Skip(f, fmt.Sprintf("no %s content found", c.format))
			}
			continue
		}
		return Errorf(Pos{File: f}, "no %s content found (wrong --format?)", c.format)
	}
	return nil
}

func (c *Collector) result() *Result {
	res := &Result{Format: c.format, Counts: Counts{Dropped: map[string]int{}}}
	speakers := map[convKey]bool{}
	sources := map[string]bool{}
	total := 0
	for _, cv := range c.order {
		total += len(cv.utts)
	}
	res.Utterances = make([]data.Utterance, 0, total)
	for _, cv := range c.order {
		if len(cv.utts) == 0 {
			continue
		}
		res.Counts.Conversations++
		sources[cv.key.source] = true
		for i := range cv.utts {
			speakers[convKey{cv.key.source, cv.utts[i].Speaker}] = true
		}
		res.Utterances = append(res.Utterances, cv.utts...)
	}
	for k, v := range c.dropped {
		res.Counts.Dropped[k] = v
	}
	res.Counts.SkippedFiles = len(c.skipped)
	res.Skipped = append([]SkippedFile{}, c.skipped...)
	files := maps.Clone(c.read)
	for _, s := range c.skipped {
		delete(files, s.File)
	}
	for f, n := range c.perFile {
		if n > 0 && f != "" {
			files[f] = true
		}
	}
	res.Counts.Files = len(files)
	res.Counts.Sources = len(sources)
	res.Counts.Speakers = len(speakers)
	res.Counts.Utterances = len(res.Utterances)
	return res
}
