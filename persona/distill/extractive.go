package distill

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/roleprint/roleprint/persona/script"
	"github.com/roleprint/roleprint/persona/textmetrics"
)

// ExtractiveVersion enters the extractive backend's fingerprint; bump it
// when its outputs change.
const ExtractiveVersion = "extractive/v2"

// Extractive is the offline backend: statistics instead of a language
// model. Every text it writes says that it is extractive.
type Extractive struct {
	chunkDF  map[string]int
	nChunks  int
	wordsOf  map[string]map[string]int // character → content-word counts
	totalW   map[string]int            // all content-word counts
	gramsOf  map[string]map[string]int // character → 2–3-gram counts
	totalG   map[string]int
	speakers []string
	names    map[string]bool // lower-cased words of speaker names
}

// NewExtractive returns the extractive backend.
func NewExtractive() *Extractive { return &Extractive{} }

// Name returns "extractive".
func (e *Extractive) Name() string { return "extractive" }

// Fingerprint returns ExtractiveVersion.
func (e *Extractive) Fingerprint() string { return ExtractiveVersion }

// Extractive returns true.
func (e *Extractive) Extractive() bool { return true }

// WholeEvents returns true: the statistics read every event of a
// character or pair (see the WholeEvents interface).
func (e *Extractive) WholeEvents() bool { return true }

// Prepare computes document frequencies over chunks and word and phrase
// counts per speaker.
func (e *Extractive) Prepare(ctx context.Context, c *Corpus) error {
	e.names = map[string]bool{}
	for sp := range c.Lines {
		for _, w := range textmetrics.Words(sp) {
			e.names[w] = true
		}
	}
	docs := make([][]string, len(c.Chunks))
	for i, ch := range c.Chunks {
		for _, l := range ch.Lines {
			docs[i] = append(docs[i], e.topicWords(l.Text)...)
		}
	}
	e.chunkDF, e.nChunks = docFreq(docs), len(docs)
	e.wordsOf, e.totalW = map[string]map[string]int{}, map[string]int{}
	e.gramsOf, e.totalG = map[string]map[string]int{}, map[string]int{}
	for sp, lines := range c.Lines {
		e.speakers = append(e.speakers, sp)
		w, g := map[string]int{}, map[string]int{}
		for _, l := range lines {
			for _, t := range contentWords(l) {
				w[t]++
				e.totalW[t]++
			}
			for _, t := range phrases(l) {
				g[t]++
				e.totalG[t]++
			}
		}
		e.wordsOf[sp], e.gramsOf[sp] = w, g
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	sort.Strings(e.speakers)
	return nil
}

// topicWords are the content words of s that are not speaker names
// (names say who is there, not what the event is about).
func (e *Extractive) topicWords(s string) []string {
	ws := contentWords(s)
	out := ws[:0]
	for _, w := range ws {
		if !e.names[w] {
			out = append(out, w)
		}
	}
	return out
}

// phrases returns the 2- and 3-grams of a line that have at least one
// content word, where a bigram may not end with a stop word nor start
// with an article ("two of", "a good") and a trigram may not start or end
// with a stop word. Words keep their inner apostrophes ("penny's", "i'm"),
// so that a possessive or contraction is not split into a stray "s".
func phrases(line string) []string {
	ws := apostropheWords(line)
	var out []string
	for n := 2; n <= 3; n++ {
		for i := 0; i+n <= len(ws); i++ {
			g := ws[i : i+n]
			first, last := stemOfClitic(g[0]), stemOfClitic(g[n-1])
			if stopwords[last] || n == 3 && stopwords[first] || n == 2 && articles[first] {
				continue
			}
			content := false
			for _, w := range g {
				if b := stemOfClitic(w); !stopwords[b] && len(b) >= 3 {
					content = true
				}
			}
			if content {
				out = append(out, strings.Join(g, " "))
			}
		}
	}
	return out
}

var articles = map[string]bool{"a": true, "an": true, "the": true}

// apostropheWords lower-cases s and returns its words: runs of letters and
// digits, with an apostrophe (’ or ') kept between two letters.
func apostropheWords(s string) []string {
	rs := []rune(strings.ToLower(s))
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur = append(cur, r)
		case (r == '\'' || r == '’') && len(cur) > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			cur = append(cur, '\'')
		default:
			flush()
		}
	}
	flush()
	return out
}

// stemOfClitic is the part of w before an apostrophe ("penny's" → "penny",
// "i'm" → "i"), which decides whether w is a stop word.
func stemOfClitic(w string) string {
	if i := strings.IndexByte(w, '\''); i > 0 {
		return w[:i]
	}
	return w
}

// Event lists who takes part, the chunk's TF-IDF keywords, and its most
// salient line.
func (e *Extractive) Event(ctx context.Context, ch script.Chunk, known []string) (Event, error) {
	ev := Event{ID: ch.ID, SceneID: ch.SceneID, Episode: ch.Episode, Heading: ch.Heading, Speakers: ch.Speakers(), Backend: e.Name()}
	ev.Characters = participants(ev.Speakers, nil, known)
	var doc []string
	for _, l := range ch.Lines {
		doc = append(doc, e.topicWords(l.Text)...)
	}
	ev.Keywords = tfidfTop(doc, e.chunkDF, e.nChunks, 6)
	// The key line maximises the summed idf of its distinct content words
	// over the square root of its length.
	best, bestScore := -1, 0.0
	for i, l := range ch.Lines {
		if l.IsNarration() {
			continue
		}
		ws := contentWords(l.Text)
		if len(textmetrics.Words(l.Text)) < 4 || len(ws) == 0 {
			continue
		}
		seen := map[string]bool{}
		s := 0.0
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				s += math.Log(float64(1+e.nChunks) / float64(1+e.chunkDF[w]))
			}
		}
		s /= math.Sqrt(float64(len(textmetrics.Words(l.Text))))
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	var b strings.Builder
	b.WriteString("[extractive] ")
	who := ev.Speakers
	if len(who) == 0 {
		who = []string{"nobody"}
	}
	fmt.Fprintf(&b, "%s %s", joinNames(sample(who, 6)), map[bool]string{true: "speaks", false: "speak"}[len(who) == 1])
	if len(ev.Keywords) > 0 {
		fmt.Fprintf(&b, " about %s", joinNames(ev.Keywords[:min(4, len(ev.Keywords))]))
	}
	if ch.Heading != "" {
		fmt.Fprintf(&b, " (%s)", strings.TrimRight(ch.Heading, "."))
	}
	b.WriteString(".")
	if best >= 0 {
		l := ch.Lines[best]
		fmt.Fprintf(&b, " Key line: %s: “%s”", l.Speaker, clip(l.Text, 200))
	}
	ev.Summary = b.String()
	return ev, nil
}

// participants is the selected characters among speakers and named, in
// order.
func participants(speakers, named, known []string) []string {
	k := map[string]bool{}
	for _, c := range known {
		k[c] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string(nil), speakers...), named...) {
		if k[s] && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Personality reports the character's distinctive words (log-odds against
// everyone else), its events' recurring topics and its counts.
func (e *Extractive) Personality(ctx context.Context, character string, events []Event, lines []string) (Personality, error) {
	p := Personality{Character: character, Lines: len(lines), Events: len(events), Backend: e.Name()}
	rest := map[string]int{}
	for t, c := range e.totalW {
		rest[t] = c - e.wordsOf[character][t]
	}
	p.Keywords = logOdds(e.wordsOf[character], rest, 12, 3, 1000)
	topics := map[string]int{}
	scenes := map[string]bool{}
	partners := map[string]int{}
	for _, ev := range events {
		scenes[ev.SceneID] = true
		for _, k := range ev.Keywords {
			topics[k]++
		}
		for _, c := range ev.Characters {
			if c != character {
				partners[c]++
			}
		}
	}
	p.Scenes = len(scenes)
	p.Topics = frequent(topics, 10, 2)
	var b strings.Builder
	fmt.Fprintf(&b, "[extractive profile: word statistics, no language model] %s speaks %s in %s across %s.", character, count(p.Lines, "line"), count(p.Events, "event"), count(p.Scenes, "scene"))
	if len(p.Keywords) > 0 {
		fmt.Fprintf(&b, " Distinctive vocabulary: %s.", strings.Join(p.Keywords, ", "))
	}
	if len(p.Topics) > 0 {
		fmt.Fprintf(&b, " Recurring topics of their scenes: %s.", strings.Join(p.Topics, ", "))
	}
	if top := frequent(partners, 4, 1); len(top) > 0 {
		var parts []string
		for _, t := range top {
			parts = append(parts, fmt.Sprintf("%s (%s)", t, count(partners[t], "event")))
		}
		fmt.Fprintf(&b, " Most often with %s.", joinNames(parts))
	}
	p.Description = b.String()
	return p, nil
}

// nameRe returns a regexp matching the first name of a character as a
// word.
func nameRe(name string) *regexp.Regexp {
	first := strings.Fields(name)
	if len(first) == 0 {
		return nil
	}
	f := first[0]
	if len(first) > 1 && (strings.HasSuffix(f, ".") || len(f) <= 3) { // "Mrs. Wolowitz", "Dr. Koothrappali"
		f = first[len(first)-1]
	}
	return regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(f) + `\b`)
}

// Relationship counts how the pair talk to and about each other in their
// shared events.
func (e *Extractive) Relationship(ctx context.Context, a, b string, shared []Event, c *Corpus) (Relationship, error) {
	r := Relationship{A: a, B: b, CoEvents: len(shared), Backend: e.Name()}
	byID := map[string]*script.Chunk{}
	for i := range c.Chunks {
		byID[c.Chunks[i].ID] = &c.Chunks[i]
	}
	reA, reB := nameRe(a), nameRe(b)
	topics := map[string]int{}
	for _, ev := range shared {
		for _, k := range ev.Keywords {
			topics[k]++
		}
		ch := byID[ev.ID]
		if ch == nil {
			continue
		}
		prev := ""
		for _, l := range ch.Lines {
			if l.IsNarration() {
				continue
			}
			if l.Speaker == a && reB != nil && reB.MatchString(l.Text) {
				r.AAddressesB++
			}
			if l.Speaker == b && reA != nil && reA.MatchString(l.Text) {
				r.BAddressesA++
			}
			if prev == a && l.Speaker == b || prev == b && l.Speaker == a {
				r.Replies++
			}
			prev = l.Speaker
		}
	}
	r.SharedTopics = frequent(topics, 6, 2)
	var d strings.Builder
	replies := "answer each other directly " + times(r.Replies)
	if r.Replies == 0 {
		replies = "never answer each other directly"
	}
	names := func(x, y string, n int) string {
		if n == 0 {
			return x + " never names " + y
		}
		return x + " names " + y + " " + times(n)
	}
	fmt.Fprintf(&d, "[extractive: co-occurrence counts, no language model] %s and %s share %s and %s. %s; %s.",
		a, b, count(r.CoEvents, "event"), replies, names(a, b, r.AAddressesB), names(b, a, r.BAddressesA))
	if len(r.SharedTopics) > 0 {
		fmt.Fprintf(&d, " Shared topics: %s.", strings.Join(r.SharedTopics, ", "))
	}
	r.Description = d.String()
	return r, nil
}

// Style measures the character's lines and finds its distinctive phrases,
// repeated short lines and usual openers.
func (e *Extractive) Style(ctx context.Context, character string, lines []string) (Style, error) {
	s := Style{Character: character, Stats: MeasureStyle(lines), Backend: e.Name()}
	rest := map[string]int{}
	for t, c := range e.totalG {
		rest[t] = c - e.gramsOf[character][t]
	}
	s.Phrases = logOdds(e.gramsOf[character], rest, 8, 3, 1000)
	short := map[string]int{}
	openers := map[string]int{}
	display := map[string]string{}
	for _, l := range lines {
		ws := textmetrics.Words(l)
		if len(ws) == 0 {
			continue
		}
		openers[ws[0]]++
		if len(ws) <= 5 {
			k := strings.Join(ws, " ")
			short[k]++
			if _, ok := display[k]; !ok {
				display[k] = strings.TrimSpace(l)
			}
		}
	}
	// A catchphrase is a short line said at least three times that is
	// not a bare stock reply ("Okay.", "What?").
	for _, k := range frequent(short, 20, 3) {
		allStop := true
		for _, w := range strings.Fields(k) {
			if !stopwords[w] && len(w) >= 3 {
				allStop = false
			}
		}
		if !allStop && len(s.Catchphrases) < 5 {
			s.Catchphrases = append(s.Catchphrases, display[k])
		}
	}
	s.Openers = frequent(openers, 5, 3)
	st := s.Stats
	var d strings.Builder
	fmt.Fprintf(&d, "[extractive: style statistics, no language model] %d lines averaging %.1f words; %.0f%% questions, %.0f%% exclamations, %.0f%% trailing off; vocabulary richness (MATTR) %.2f; mean word length %.1f letters; first-person pronouns %.1f%% and second-person %.1f%% of words.",
		st.Lines, st.MeanWords, 100*st.QuestionRate, 100*st.ExclamationRate, 100*st.EllipsisRate, st.MATTR, st.MeanWordLength, 100*st.FirstPerson, 100*st.SecondPerson)
	if len(s.Openers) > 0 {
		fmt.Fprintf(&d, " Often starts with: %s.", quoteList(s.Openers))
	}
	if len(s.Phrases) > 0 {
		fmt.Fprintf(&d, " Characteristic phrases: %s.", quoteList(s.Phrases))
	}
	if len(s.Catchphrases) > 0 {
		fmt.Fprintf(&d, " Repeats: %s.", quoteList(s.Catchphrases))
	}
	s.Description = d.String()
	return s, nil
}

// count writes "1 event", "3 events".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// times writes "never", "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 0:
		return "never"
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = "“" + x + "”"
	}
	return strings.Join(q, ", ")
}

// Prompt fills a second-person template from the profile.
func (e *Extractive) Prompt(ctx context.Context, p Profile) (Persona, error) {
	c := p.Personality.Character
	var b strings.Builder
	fmt.Fprintf(&b, "You are %s.\n", c)
	b.WriteString("(Extractive persona: assembled from word statistics of the script, without a language model.)\n\n")
	fmt.Fprintf(&b, "Who you are: you speak %s in %s of the story.", count(p.Personality.Lines, "line"), count(p.Personality.Scenes, "scene"))
	if len(p.Personality.Topics) > 0 {
		fmt.Fprintf(&b, " The scenes you are in are about %s.", joinNames(p.Personality.Topics[:min(6, len(p.Personality.Topics))]))
	}
	if len(p.Personality.Keywords) > 0 {
		fmt.Fprintf(&b, " Words that set you apart from everyone else: %s.", strings.Join(p.Personality.Keywords, ", "))
	}
	b.WriteString("\n")
	if len(p.Relationships) > 0 {
		b.WriteString("\nThe people in your life:\n")
		for _, r := range p.Relationships {
			other, you2them, them2you := r.B, r.AAddressesB, r.BAddressesA
			if r.B == c {
				other, you2them, them2you = r.A, r.BAddressesA, r.AAddressesB
			}
			fmt.Fprintf(&b, "- %s: you are together in %s", other, count(r.CoEvents, "event"))
			if r.Replies > 0 {
				fmt.Fprintf(&b, " and answer each other %s", times(r.Replies))
			}
			b.WriteString(".")
			switch {
			case you2them > 0 && them2you > 0:
				fmt.Fprintf(&b, " You call them by name %s; they call you by name %s.", times(you2them), times(them2you))
			case you2them > 0:
				fmt.Fprintf(&b, " You call them by name %s; they never use your name.", times(you2them))
			case them2you > 0:
				fmt.Fprintf(&b, " They call you by name %s; you never use theirs.", times(them2you))
			}
			if len(r.SharedTopics) > 0 {
				fmt.Fprintf(&b, " You talk about %s.", joinNames(r.SharedTopics[:min(3, len(r.SharedTopics))]))
			}
			b.WriteString("\n")
		}
	}
	st := p.Style.Stats
	fmt.Fprintf(&b, "\nHow you speak: your lines average %.0f words; about %.0f%% of them are questions and %.0f%% exclamations.", st.MeanWords, 100*st.QuestionRate, 100*st.ExclamationRate)
	if len(p.Style.Openers) > 0 {
		fmt.Fprintf(&b, " You often begin with %s.", quoteList(p.Style.Openers[:min(3, len(p.Style.Openers))]))
	}
	if len(p.Style.Phrases) > 0 {
		fmt.Fprintf(&b, " Phrases you use: %s.", quoteList(p.Style.Phrases[:min(5, len(p.Style.Phrases))]))
	}
	if len(p.Style.Catchphrases) > 0 {
		fmt.Fprintf(&b, " Your catchphrases: %s.", quoteList(p.Style.Catchphrases))
	}
	if a := acousticSentence(p); a != "" {
		b.WriteString("\n\n" + a)
	}
	fmt.Fprintf(&b, "\n\nStay in character as %s: answer in your own voice, in the first person, as you would in the story, and never say that you are an AI.", c)
	return Persona{Character: c, Prompt: b.String(), Extractive: true, Backend: e.Name()}, nil
}
