package roleplay

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"

	"github.com/roleprint/roleprint/data"
)

// uset is one utterance set with every conversation it draws from, so
// that pairs of sets sharing a conversation can be left out.
type uset struct {
	id    string
	texts []string
	convs []string // sorted "source\x00conversation_id" keys
}

// sharesConversation reports whether a and b draw from a common
// conversation.
func sharesConversation(a, b *uset) bool {
	i, j := 0, 0
	for i < len(a.convs) && j < len(b.convs) {
		switch {
		case a.convs[i] == b.convs[j]:
			return true
		case a.convs[i] < b.convs[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// conversation is one conversation's rows of one role, in turn order.
type conversation struct {
	key  string
	rows []data.Utterance
}

// byConversation groups rows by (source, conversation) in order of first
// appearance, each conversation's rows in turn order.
func byConversation(rows []data.Utterance) []conversation {
	idx := map[string]int{}
	var out []conversation
	for _, u := range rows {
		k := u.Source + "\x00" + u.ConversationID
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, conversation{key: k})
		}
		out[i].rows = append(out[i].rows, u)
	}
	for i := range out {
		r := out[i].rows
		sort.SliceStable(r, func(a, b int) bool { return r[a].Turn < r[b].Turn })
	}
	return out
}

// setKind says which sets makeSets makes: a model's, the Real row's
// (held-out real conversations), or the real reference sets.
type setKind int

const (
	genSets setKind = iota
	heldSets
	refSets
)

// makeSets cuts one role's conversations into sets by grouping g and kind:
// GroupRole chunks real sets (held or reference); GroupPaper makes one set
// of a model's (or the Real row's) role and one reference set per
// conversation, of any size.
func makeSets(convs []conversation, g Grouping, size, minSize int, prefix string, kind setKind) []*uset {
	switch {
	case g == GroupRole && kind != genSets:
		g = GroupChunks
	case g == GroupPaper && kind == refSets:
		g, minSize = GroupConversation, 1
	case g == GroupPaper:
		g = GroupRole
	}
	var out []*uset
	cur := &uset{}
	addKey := func(s *uset, k string) {
		if n := len(s.convs); n == 0 || s.convs[n-1] != k {
			s.convs = append(s.convs, k)
		}
	}
	flush := func() {
		if len(cur.texts) > 0 {
			out = append(out, cur)
		}
		cur = &uset{}
	}
	switch g {
	case GroupConversation:
		for _, c := range convs {
			if len(c.rows) < minSize {
				continue
			}
			s := &uset{convs: []string{c.key}}
			for _, u := range c.rows {
				s.texts = append(s.texts, u.Text)
			}
			out = append(out, s)
		}
	case GroupRole:
		for _, c := range convs {
			for _, u := range c.rows {
				cur.texts = append(cur.texts, u.Text)
			}
			addKey(cur, c.key)
		}
		flush()
	default: // GroupChunks
		for _, c := range convs {
			for _, u := range c.rows {
				cur.texts = append(cur.texts, u.Text)
				addKey(cur, c.key)
				if len(cur.texts) == size {
					flush()
				}
			}
		}
		if len(cur.texts) > 0 && len(cur.texts) < minSize && len(out) > 0 {
			last := out[len(out)-1]
			last.texts = append(last.texts, cur.texts...)
			for _, k := range cur.convs {
				addKey(last, k)
			}
			cur = &uset{}
		}
		flush()
	}
	for i, s := range out {
		sort.Strings(s.convs)
		s.convs = slices.Compact(s.convs)
		s.id = prefix + "#" + strconv.Itoa(i)
	}
	return out
}

// splitHeldOut puts whole conversations, drawn in a seeded random order,
// into held until it has at least frac of the utterances, leaving at
// least one conversation in ref. With one conversation, or frac 0, held
// is empty.
func splitHeldOut(convs []conversation, frac float64, rng *rand.Rand) (held, ref []conversation) {
	if frac <= 0 || len(convs) < 2 {
		return nil, convs
	}
	total := 0
	for _, c := range convs {
		total += len(c.rows)
	}
	order := rng.Perm(len(convs))
	inHeld := make([]bool, len(convs))
	n, k := 0, 0
	for _, i := range order {
		if float64(n) >= frac*float64(total) || k == len(convs)-1 {
			break
		}
		inHeld[i] = true
		n += len(convs[i].rows)
		k++
	}
	for i, c := range convs {
		if inHeld[i] {
			held = append(held, c)
		} else {
			ref = append(ref, c)
		}
	}
	return held, ref
}
