package judge

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/persona/textmetrics"
	"github.com/roleprint/roleprint/stats"
)

// DefaultContextLengths are VoxRole Table 4's context lengths.
var DefaultContextLengths = []int{4, 6, 8, 10}

// ContextLengthMeaning says what a context length k counts, as VoxRole's
// Table 4 uses it (4, 6, 8, 10): the k dialogue turns immediately before
// the target line, by any speaker, the target itself excluded.
const ContextLengthMeaning = "k = the dialogue turns immediately before the target line (any speaker), the target excluded; every target is scored at every k"

// AblationItem is one target line with the dialogue before it.
type AblationItem struct {
	ID      string       `json:"id"`
	Role    string       `json:"role"`
	Persona string       `json:"persona,omitempty"`
	Profile AcousticTags `json:"profile,omitempty"`
	// History is every turn of the conversation before the target.
	History []Turn `json:"history"`
	// Reference is the character's real line, ReferenceTags its tags.
	Reference     string       `json:"reference"`
	ReferenceTags AcousticTags `json:"reference_tags,omitempty"`
	// Conversation identifies the source conversation (retrieval agents
	// must not draw from it).
	Conversation string `json:"conversation"`
}

// Agent produces a role-play response from a persona and a context.
type Agent interface {
	Name() string
	Respond(ctx context.Context, item AblationItem, context []Turn) (string, error)
}

// AblationTable is VoxRole Table 4 for one agent: the mean judge score for
// each context length.
type AblationTable struct {
	Agent string `json:"agent"`
	Judge string `json:"judge"`
	N     int    `json:"n"`
	Ks    []int  `json:"ks"`
	// KCounts is ContextLengthMeaning.
	KCounts string `json:"k_counts"`
	// Targets are the items' IDs, the same target lines at every k.
	Targets []string `json:"targets"`
	// Overall[i] is the mean overall score with the last Ks[i] turns, and
	// Scores[i] the per-dimension means.
	Overall []float64            `json:"overall"`
	Scores  []map[string]float64 `json:"scores"`
}

// ContextAblation asks agent for a response to every item with the last k
// turns of its history (the k turns before the target line, the target
// excluded: ContextLengthMeaning), for each k, and judges it. The targets
// are the same at every k, so the lengths differ in context only; an item
// whose history is shorter than the largest k is an error (it would be
// scored with fewer turns than its k says; AblationItems with minHistory
// = the largest k picks only items long enough).
func ContextAblation(ctx context.Context, agent Agent, j Judge, items []AblationItem, ks []int, progress func(done, total int)) (*AblationTable, error) {
	if len(ks) == 0 {
		ks = DefaultContextLengths
	}
	maxK := 0
	for _, k := range ks {
		if k < 1 {
			return nil, fmt.Errorf("ablation: context length %d: want ≥ 1", k)
		}
		maxK = max(maxK, k)
	}
	t := &AblationTable{Agent: agent.Name(), Judge: j.Name(), N: len(items), Ks: ks, KCounts: ContextLengthMeaning}
	for _, it := range items {
		if len(it.History) < maxK {
			return nil, fmt.Errorf("ablation: item %q has %d turns before its target, fewer than the largest context length %d (pick items with AblationItems(…, minHistory = %d, …))",
				it.ID, len(it.History), maxK, maxK)
		}
		t.Targets = append(t.Targets, it.ID)
	}
	done := 0
	for _, k := range ks {
		var scores []VRScore
		for _, it := range items {
			c := it.History[max(0, len(it.History)-k):]
			resp, err := agent.Respond(ctx, it, c)
			if err != nil {
				return nil, fmt.Errorf("ablation k=%d item %q: %w", k, it.ID, err)
			}
			s, err := j.Score(ctx, VRInstance{ID: it.ID, Role: it.Role, Persona: it.Persona, Profile: it.Profile, Context: c,
				Response: resp, Reference: it.Reference})
			if err != nil {
				return nil, fmt.Errorf("ablation k=%d item %q: %w", k, it.ID, err)
			}
			scores = append(scores, s)
			done++
			if progress != nil {
				progress(done, len(ks)*len(items))
			}
		}
		agg := AggregateVoxRole(agent.Name(), j.Name(), scores)
		t.Overall = append(t.Overall, agg.Overall)
		t.Scores = append(t.Scores, agg.Scores)
	}
	return t, nil
}

// AblationItems picks target lines from corpus rows: turns spoken by one
// of roles (all speakers when roles is empty) with at least minHistory
// earlier turns in their conversation (the target not counted; give the
// largest context length), at most perRole per role, spread
// evenly over the corpus. personas maps roles to persona prompts.
func AblationItems(utts []data.Utterance, roles []string, personas map[string]string, minHistory, perRole int) []AblationItem {
	want := map[string]bool{}
	for _, r := range roles {
		want[r] = true
	}
	type conv struct {
		id   string
		rows []data.Utterance
	}
	var order []string
	convs := map[string]*conv{}
	for _, u := range utts {
		k := u.Source + "/" + u.ConversationID
		c := convs[k]
		if c == nil {
			c = &conv{id: k}
			convs[k] = c
			order = append(order, k)
		}
		c.rows = append(c.rows, u)
	}
	cands := map[string][]AblationItem{}
	for _, k := range order {
		c := convs[k]
		sort.SliceStable(c.rows, func(a, b int) bool { return c.rows[a].Turn < c.rows[b].Turn })
		for i := minHistory; i < len(c.rows); i++ {
			u := c.rows[i]
			if len(want) > 0 && !want[u.Speaker] {
				continue
			}
			hist := make([]Turn, i)
			for h := 0; h < i; h++ {
				hist[h] = Turn{Speaker: c.rows[h].Speaker, Text: c.rows[h].Text, Audio: c.rows[h].AudioPath}
			}
			cands[u.Speaker] = append(cands[u.Speaker], AblationItem{
				ID: fmt.Sprintf("%s#%d", k, u.Turn), Role: u.Speaker, Persona: personas[u.Speaker], History: hist,
				Reference: u.Text, Conversation: k,
			})
		}
	}
	var names []string
	for n := range cands {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []AblationItem
	for _, n := range names {
		c := cands[n]
		if perRole > 0 && len(c) > perRole {
			var s []AblationItem
			for i := 0; i < perRole; i++ {
				s = append(s, c[i*len(c)/perRole])
			}
			c = s
		}
		out = append(out, c...)
	}
	return out
}

// RetrievalAgent is an offline agent: it answers with the role's own line
// (from other conversations) whose preceding turn is most similar to the
// context, weighting recent turns more (weight 1/(1+distance)). More
// context changes what it retrieves, so the ablation has something to
// measure without a server.
type RetrievalAgent struct {
	enc  *textmetrics.HashEncoder
	pool map[string][]poolLine
}

type poolLine struct {
	conv, text string
	prev       []float32
}

// NewRetrievalAgent indexes corpus rows: for each speaker, its lines with
// the vector of the turn before each.
func NewRetrievalAgent(utts []data.Utterance) *RetrievalAgent {
	a := &RetrievalAgent{enc: textmetrics.NewHashEncoder(512), pool: map[string][]poolLine{}}
	for i := 1; i < len(utts); i++ {
		u, p := utts[i], utts[i-1]
		if u.ConversationID != p.ConversationID || u.Source != p.Source {
			continue
		}
		a.pool[u.Speaker] = append(a.pool[u.Speaker], poolLine{conv: u.Source + "/" + u.ConversationID, text: u.Text, prev: a.enc.Vector(p.Text)})
	}
	return a
}

// Name returns "retrieval".
func (a *RetrievalAgent) Name() string { return "retrieval" }

// CanAnswer reports whether the agent has a line of item's role outside
// item's conversation to answer with (a role heard in one conversation
// only cannot be answered without copying the reference's own scene).
func (a *RetrievalAgent) CanAnswer(item AblationItem) bool {
	for _, l := range a.pool[item.Role] {
		if l.conv != item.Conversation {
			return true
		}
	}
	return false
}

// Respond returns the best-matching line of the role.
func (a *RetrievalAgent) Respond(ctx context.Context, item AblationItem, c []Turn) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	q := make([]float32, a.enc.Dim())
	for i, t := range c {
		w := float32(1 / float64(len(c)-i))
		for d, x := range a.enc.Vector(t.Text) {
			q[d] += w * x
		}
	}
	best, bestS := "", math.Inf(-1)
	for _, l := range a.pool[item.Role] {
		if l.conv == item.Conversation {
			continue
		}
		if s := stats.Cosine(q, l.prev); s > bestS {
			best, bestS = l.text, s
		}
	}
	if best == "" {
		return "", fmt.Errorf("retrieval agent: no lines of %s outside conversation %s", item.Role, item.Conversation)
	}
	return best, nil
}

// LLMAgent answers through an OpenAI-compatible model: the persona is the
// system prompt, the role's own turns are assistant messages and the
// others' user messages ("Speaker: text").
type LLMAgent struct {
	Client *llm.Client
}

// Name returns "llm:MODEL".
func (a *LLMAgent) Name() string { return "llm:" + a.Client.Model() }

// Respond asks the model for the role's next line.
func (a *LLMAgent) Respond(ctx context.Context, item AblationItem, c []Turn) (string, error) {
	sys := item.Persona
	if sys == "" {
		sys = "You are " + item.Role + ". Stay in character."
	}
	msgs := []llm.Message{llm.System(sys + "\nReply with " + item.Role + "'s next line only, without the name prefix.")}
	for _, t := range c {
		if t.Speaker == item.Role {
			msgs = append(msgs, llm.Assistant(t.Text))
		} else {
			msgs = append(msgs, llm.User(t.Speaker+": "+t.Text))
		}
	}
	if len(c) == 0 || c[len(c)-1].Speaker == item.Role {
		msgs = append(msgs, llm.User("(continue)"))
	}
	r, err := a.Client.Chat(ctx, llm.Request{Messages: msgs})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r.Content), item.Role+":")), nil
}

// Series returns the table by dimension: the sorted dimension names
// followed by "overall", and for each the mean score at every Ks[i]
// (values[d][i]), for a table or a line plot.
func (t *AblationTable) Series() (names []string, values [][]float64) {
	if len(t.Scores) > 0 {
		for d := range t.Scores[0] {
			names = append(names, d)
		}
	}
	sort.Strings(names)
	names = append(names, "overall")
	values = make([][]float64, len(names))
	for di, d := range names {
		values[di] = make([]float64, len(t.Ks))
		for i := range t.Ks {
			if d == "overall" {
				values[di][i] = t.Overall[i]
			} else if i < len(t.Scores) {
				values[di][i] = t.Scores[i][d]
			}
		}
	}
	return names, values
}

// KLabels names the table's columns ("k = 4") and KValues gives them as
// numbers (the x values of a line plot).
func (t *AblationTable) KLabels() []string {
	out := make([]string, len(t.Ks))
	for i, k := range t.Ks {
		out[i] = fmt.Sprintf("k = %d", k)
	}
	return out
}

// KValues returns Ks as float64.
func (t *AblationTable) KValues() []float64 {
	out := make([]float64, len(t.Ks))
	for i, k := range t.Ks {
		out[i] = float64(k)
	}
	return out
}
