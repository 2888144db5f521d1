package selfplay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
)

// Progress receives the number of finished scenes (or questions) and the
// total.
type Progress func(done, total int)

// Result is what a run produced.
type Result struct {
	// Rows are the utterances, scene by scene in Scenes order, each in
	// turn order; the generated-corpus schema.
	Rows []data.Utterance `json:"-"`
	// Scenes describes every conversation (self-play) or question
	// (interview).
	Scenes []SceneResult `json:"scenes"`
	// Requests counts the requests paid in this run; Replayed the turns
	// taken from the journal.
	Requests int64 `json:"requests"`
	Replayed int64 `json:"replayed"`
	// PromptTokens and CompletionTokens add up the usage of the paid
	// requests.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// SceneResult is one conversation's outcome.
type SceneResult struct {
	// ID is the conversation id.
	ID string `json:"id"`
	// Roles are the speakers in order.
	Roles []string `json:"roles"`
	// Seed is the sampling seed.
	Seed int64 `json:"seed"`
	// Turns counts the generated turns (greeting or question not
	// counted).
	Turns int `json:"turns"`
	// CutReplies counts replies the server cut at max_tokens
	// (finish_reason "length"); they are kept as they are (raise
	// --max-tokens when there are many).
	CutReplies int `json:"cut_replies"`
	// End is "marker" (a reply carried Config.EndMarker), "empty" (a reply
	// was empty once cleaned), "max_turns", or "answered" in interviews.
	End string `json:"end"`
}

// runner holds what the workers share.
type runner struct {
	client  *llm.Client
	cfg     Config
	roles   map[string]Role
	journal *Journal
	limit   *limiter
	res     *Result
	model   string
}

func newRunner(client *llm.Client, roles []Role, cfg Config, journal *Journal) (*runner, error) {
	if client == nil || journal == nil {
		return nil, errors.New("selfplay: a client and a journal are required")
	}
	r := &runner{client: client, cfg: cfg, roles: map[string]Role{}, journal: journal, limit: newLimiter(cfg.RPS), res: &Result{}}
	for _, ro := range roles {
		r.roles[ro.Name] = ro
	}
	r.model = cfg.AgentModel
	if r.model == "" {
		r.model = client.Model()
	}
	return r, nil
}

// SelfPlay generates the scenes of roles (see Scenes and the package
// documentation). Completed turns go to the journal as they come and are
// replayed from it on a rerun. When ctx is cancelled no new request
// starts, requests in flight are completed and journalled, and SelfPlay
// returns ctx's error; a request that fails stops its scene, the others
// go on, and the error names the scenes that failed. Rows are returned
// only when every scene finished.
func SelfPlay(ctx context.Context, client *llm.Client, roles []Role, cfg Config, journal *Journal, progress Progress) (*Result, error) {
	cfg.fill(false)
	scenes, err := Scenes(roles, cfg.Pairs, cfg.PerPair, cfg.Seed, cfg.SceneSize)
	if err != nil {
		return nil, err
	}
	r, err := newRunner(client, roles, cfg, journal)
	if err != nil {
		return nil, err
	}
	return r.runAll(ctx, len(scenes), progress, func(ctx context.Context, i int) ([]data.Utterance, SceneResult, error) {
		return r.scene(ctx, scenes[i])
	})
}

// Interview asks every role every question meant for it (all questions
// without a Role; those with a Role only of that role), one single-turn
// request each. Each question and answer is a conversation "ROLE/qN" (N
// the question's 1-based position in questions) of two rows: the question
// (speaker "User") and the answer (speaker the role). Questions for roles
// not in roles are left out; none left is an error.
func Interview(ctx context.Context, client *llm.Client, roles []Role, questions []Question, cfg Config, journal *Journal, progress Progress) (*Result, error) {
	cfg.fill(true)
	type item struct {
		role Role
		qi   int
	}
	var items []item
	for _, ro := range roles {
		for qi, q := range questions {
			if q.Role == "" || q.Role == ro.Name {
				items = append(items, item{ro, qi})
			}
		}
	}
	if len(items) == 0 {
		return nil, errors.New("interview: no question is for any of the roles given")
	}
	r, err := newRunner(client, roles, cfg, journal)
	if err != nil {
		return nil, err
	}
	return r.runAll(ctx, len(items), progress, func(ctx context.Context, i int) ([]data.Utterance, SceneResult, error) {
		it := items[i]
		return r.interview(ctx, it.role, it.qi, questions[it.qi].Text, cfg.Seed+int64(i))
	})
}

// runAll runs n items on Config.Concurrency workers and gathers their
// rows in item order.
func (r *runner) runAll(ctx context.Context, n int, progress Progress, item func(context.Context, int) ([]data.Utterance, SceneResult, error)) (*Result, error) {
	rows := make([][]data.Utterance, n)
	scenes := make([]SceneResult, n)
	errs := make([]error, n)
	next := atomic.Int64{}
	done := atomic.Int64{}
	var mu sync.Mutex
	if progress != nil {
		progress(0, n)
	}
	var wg sync.WaitGroup
	for w := 0; w < min(r.cfg.Concurrency, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				rows[i], scenes[i], errs[i] = item(ctx, i)
				d := int(done.Add(1))
				if progress != nil {
					mu.Lock()
					progress(d, n)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	res := r.res
	res.Scenes = scenes
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("selfplay: stopped (%w); %d turns are in the journal %s, a rerun resumes from there", err, r.journal.Len(), r.journal.Path())
	}
	var failed []string
	var first error
	for i, err := range errs {
		if err != nil {
			if first == nil {
				first = err
			}
			failed = append(failed, scenes[i].ID)
		}
	}
	if first != nil {
		return res, fmt.Errorf("selfplay: %d of %d conversations failed (%s): %w; completed turns are in the journal %s, a rerun resumes", len(failed), n, strings.Join(head(failed, 5), ", "), first, r.journal.Path())
	}
	for _, rs := range rows {
		res.Rows = append(res.Rows, rs...)
	}
	return res, nil
}

func head(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("… %d more", len(s)-n))
	}
	return s
}

// ask returns the reply to req: from the journal when this exact request
// was completed before, else from the server (the request is completed
// even when ctx is cancelled meanwhile, and journalled).
func (r *runner) ask(ctx context.Context, req llm.Request, conv string, turn int, speaker string) (Entry, error) {
	req = r.client.Resolve(req)
	key := llm.CacheKey(req)
	if e, ok := r.journal.Get(key); ok {
		atomic.AddInt64(&r.res.Replayed, 1)
		return e, nil
	}
	if err := r.limit.wait(ctx); err != nil {
		return Entry{}, err
	}
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	resp, err := r.client.Chat(context.WithoutCancel(ctx), req)
	if err != nil {
		return Entry{}, fmt.Errorf("%s turn %d (%s): %w", conv, turn, speaker, err)
	}
	if !resp.Cached {
		atomic.AddInt64(&r.res.Requests, 1)
		atomic.AddInt64(&r.res.PromptTokens, int64(resp.Usage.PromptTokens))
		atomic.AddInt64(&r.res.CompletionTokens, int64(resp.Usage.CompletionTokens))
	}
	e := Entry{Key: key, Conversation: conv, Turn: turn, Speaker: speaker, Reply: resp.Content, FinishReason: resp.FinishReason,
		Model: resp.Model, PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}
	if err := r.journal.Add(e); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// sampling returns the request's sampling fields.
func (r *runner) sampling(seed int64) llm.Request {
	req := llm.Request{Temperature: llm.Float(r.cfg.Temperature), MaxTokens: r.cfg.MaxTokens, Seed: &seed}
	if r.cfg.TopP > 0 {
		req.TopP = llm.Float(r.cfg.TopP)
	}
	return req
}

// line is one spoken line of a scene.
type line struct{ speaker, text string }

// scene plays one conversation.
func (r *runner) scene(ctx context.Context, sc Scene) ([]data.Utterance, SceneResult, error) {
	res := SceneResult{ID: sc.ID, Roles: sc.Roles, Seed: sc.Seed, End: "max_turns"}
	// The greeting is the last speaker's line in its own view (so every
	// view alternates), a "User" row in the output.
	history := []line{{speaker: sc.Roles[len(sc.Roles)-1], text: r.cfg.Greeting}}
	rows := []data.Utterance{r.row(sc.ID, 0, "User", sc.Roles[0], r.cfg.Greeting)}
	for t := 0; t < r.cfg.MaxTurns; t++ {
		speaker := sc.Roles[t%len(sc.Roles)]
		req := r.sampling(sc.Seed)
		req.Messages = r.messages(sc, speaker, history)
		e, err := r.ask(ctx, req, sc.ID, t+1, speaker)
		if err != nil {
			return nil, res, err
		}
		if e.FinishReason == "length" {
			res.CutReplies++
		}
		text, ended := CleanReply(e.Reply, speaker, r.cfg.EndMarker)
		if text == "" {
			res.End = "empty"
			if ended {
				res.End = "marker"
			}
			break
		}
		history = append(history, line{speaker, text})
		rows = append(rows, r.row(sc.ID, t+1, speaker, speaker, text))
		res.Turns++
		if ended && res.Turns >= r.cfg.MinTurns {
			res.End = "marker"
			break
		}
	}
	return rows, res, nil
}

// messages builds speaker's view of the scene: its persona and the scene
// instruction as the system message, its own lines as assistant
// messages, the others' as user messages ("Name: line" when more than one
// other speaks), consecutive messages of one side merged.
func (r *runner) messages(sc Scene, speaker string, history []line) []llm.Message {
	var others []string
	for _, s := range sc.Roles {
		if s != speaker {
			others = append(others, s)
		}
	}
	sys := strings.TrimSpace(r.roles[speaker].Prompt) + "\n\n" + fmt.Sprintf(r.cfg.SceneTemplate, speaker, strings.Join(others, " and "), r.cfg.EndMarker)
	msgs := []llm.Message{llm.System(sys)}
	for _, l := range history {
		m := llm.User(l.text)
		if l.speaker == speaker {
			m = llm.Assistant(l.text)
		} else if len(others) > 1 {
			m = llm.User(l.speaker + ": " + l.text)
		}
		if last := &msgs[len(msgs)-1]; len(msgs) > 1 && last.Role == m.Role {
			last.Content += "\n" + m.Content
			continue
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// interview asks one role one question.
func (r *runner) interview(ctx context.Context, role Role, qi int, q string, seed int64) ([]data.Utterance, SceneResult, error) {
	id := fmt.Sprintf("%s/q%d", role.Name, qi+1)
	res := SceneResult{ID: id, Roles: []string{role.Name}, Seed: seed, End: "answered"}
	req := r.sampling(seed)
	sys := strings.TrimSpace(role.Prompt) + "\n\n" + fmt.Sprintf(r.cfg.InterviewTemplate, role.Name)
	req.Messages = []llm.Message{llm.System(sys), llm.User(q)}
	e, err := r.ask(ctx, req, id, 1, role.Name)
	if err != nil {
		return nil, res, err
	}
	if e.FinishReason == "length" {
		res.CutReplies++
	}
	text, _ := CleanReply(e.Reply, role.Name, r.cfg.EndMarker)
	rows := []data.Utterance{r.row(id, 0, "User", role.Name, q)}
	if text == "" {
		res.End = "empty"
		return rows, res, nil
	}
	res.Turns = 1
	return append(rows, r.row(id, 1, role.Name, role.Name, text)), res, nil
}

func (r *runner) row(conv string, turn int, speaker, role, text string) data.Utterance {
	return data.Utterance{Source: r.cfg.Source, ConversationID: conv, Scene: conv, Turn: int32(turn), Speaker: speaker, Text: text, AgentModel: r.model, Role: role}
}

// CleanReply removes what models add around a line — a leading "Name:"
// (also **Name:**), surrounding quotes and whitespace — and the end
// marker; ended reports whether the marker was there. Text after the
// marker is dropped.
func CleanReply(reply, speaker, marker string) (text string, ended bool) {
	t := strings.TrimSpace(reply)
	if marker != "" {
		if i := strings.Index(t, marker); i >= 0 {
			t, ended = strings.TrimSpace(t[:i]), true
		}
	}
	for _, p := range []string{speaker + ":", "**" + speaker + ":**", "**" + speaker + "**:"} {
		if len(t) >= len(p) && strings.EqualFold(t[:len(p)], p) {
			t = strings.TrimSpace(t[len(p):])
			break
		}
	}
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}} {
		if strings.HasPrefix(t, q[0]) && strings.HasSuffix(t, q[1]) && len(t) > len(q[0])+len(q[1]) && !strings.Contains(t[len(q[0]):len(t)-len(q[1])], q[0]) {
			t = strings.TrimSpace(t[len(q[0]) : len(t)-len(q[1])])
		}
	}
	return t, ended
}
