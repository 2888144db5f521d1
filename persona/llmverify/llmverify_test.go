package llmverify

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

func TestParseVerdict(t *testing.T) {
	for _, c := range []struct {
		reply    string
		same, ok bool
	}{
		{"TRUE", true, true},
		{"false", false, true},
		{"True.", true, true},
		{"**FALSE**", false, true},
		{"Answer: TRUE", true, true},
		{"It is true that both use slang, but the vocabulary differs.\nAnswer: FALSE", false, true},
		{"Let's analyse step by step: ... Final answer - **True**", true, true},
		{"Verdict: no", false, true},
		{"Both speakers say TRUE things. In the end: FALSE", false, true},
		{"Yes, these were written by the same person.", true, true},
		{"No. The tone is different.", false, true},
		{"These are clearly different speakers.", false, true},
		{"I believe it is the same speaker.", true, true},
		{"It is not the same person.", false, true},
		{"true or false? hard to say", false, false},
		{"I cannot tell.", false, false},
		{"", false, false},
	} {
		same, ok := ParseVerdict(c.reply)
		if same != c.same || ok != c.ok {
			t.Errorf("ParseVerdict(%q) = %v, %v; want %v, %v", c.reply, same, ok, c.same, c.ok)
		}
	}
}

func TestParsePrompting(t *testing.T) {
	for s, want := range map[string]string{"zero-shot": "zero-shot", "COT": "cot", "2-shot": "2-shot", "6-shot": "6-shot", "4-shot-cot": "4-shot-cot"} {
		p, err := ParsePrompting(s)
		if err != nil || p.String() != want {
			t.Errorf("ParsePrompting(%q) = %v, %v", s, p, err)
		}
	}
	for _, bad := range []string{"3-shot", "few", "-2-shot"} {
		if _, err := ParsePrompting(bad); err == nil {
			t.Errorf("ParsePrompting(%q) accepted", bad)
		}
	}
	if v, err := ParseView("Conversation"); err != nil || v != Conversation {
		t.Errorf("ParseView: %v %v", v, err)
	}
	if _, err := ParseView("both"); err == nil {
		t.Error("bad view accepted")
	}
}

// items returns 8 pairs whose first utterance carries a marker the fake
// server answers: <<yes>> → TRUE, <<no>> → FALSE, <<mute>> → no verdict.
func items() []Item {
	spec := []struct {
		marker string
		same   bool
	}{{"yes", true}, {"yes", true}, {"yes", true}, {"mute", true}, {"no", false}, {"no", false}, {"no", false}, {"yes", false}}
	var out []Item
	for i, s := range spec {
		out = append(out, Item{
			ID:   fmt.Sprintf("p%d", i+1),
			A:    Side{Utterances: []string{fmt.Sprintf("<<%s>> line %d", s.marker, i), "second line"}, Speaker: "ANN"},
			B:    Side{Utterances: []string{fmt.Sprintf("other line %d", i)}, Speaker: "BOB"},
			Same: s.same,
		})
	}
	return out
}

// fakeVerifier answers from the marker in the last user message.
func fakeVerifier(req llm.Request) string {
	last := req.Messages[len(req.Messages)-1].Content
	set1 := last[strings.Index(last, "Set 1:"):strings.Index(last, "Set 2:")]
	switch {
	case strings.Contains(set1, "<<yes>>"):
		return "Both sets are polite and terse.\nAnswer: TRUE"
	case strings.Contains(set1, "<<no>>"):
		return "**FALSE**"
	}
	return "I cannot tell."
}

func TestRunAgainstFakeServer(t *testing.T) {
	srv := llmtest.New(fakeVerifier)
	t.Cleanup(srv.Close)
	cache := t.TempDir()
	client, err := llm.New(srv.Config("fake-gpt", cache))
	if err != nil {
		t.Fatal(err)
	}
	// The server rate-limits, fails and cuts a body short first: the
	// client retries, the run is unaffected.
	srv.Fail(llmtest.RateLimited, llmtest.ServerError, llmtest.Malformed)
	test := items()
	var progressed int
	res, err := Run(context.Background(), client, test, nil, Config{View: Utterances, Workers: 3}, func(done, total int) { progressed = done })
	if err != nil {
		t.Fatal(err)
	}
	if res.TP != 3 || res.FN != 1 || res.TN != 3 || res.FP != 1 || res.Unparsed != 1 || res.N != 8 || progressed != 8 {
		t.Fatalf("result %+v", res)
	}
	if res.Accuracy != 0.75 || res.F1 != 0.75 || res.MacroF1 != 0.75 {
		t.Errorf("acc %v f1 %v macro %v", res.Accuracy, res.F1, res.MacroF1)
	}
	if res.Predictions[3].Predicted != nil || res.Predictions[0].ID != "p1" || !*res.Predictions[0].Predicted {
		t.Errorf("predictions %+v", res.Predictions[:4])
	}
	served := srv.Served()
	if served != 8 {
		t.Errorf("served %d", served)
	}
	// A second run is answered from the cache: nothing usable is paid
	// twice; the one reply without a verdict was not cached and is asked
	// again.
	again, err := Run(context.Background(), client, test, nil, Config{View: Utterances}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Served() != served+1 || !again.Predictions[5].Cached || again.Predictions[3].Cached || again.Accuracy != res.Accuracy {
		t.Errorf("rerun served %d (want %d), cached %v", srv.Served(), served+1, again.Predictions[5].Cached)
	}
}

// Replies without a usable verdict — prose, or a reply cut at the token
// limit — are counted as unparsed and never cached, so a rerun asks again
// for them only; a cached unusable reply (an older run's) is counted the
// same way and asked again only with --llm-refresh.
func TestUnusableRepliesAreNotCached(t *testing.T) {
	srv := llmtest.New(nil)
	t.Cleanup(srv.Close)
	srv.SetReply(func(req llm.Request) llmtest.Reply {
		last := req.Messages[len(req.Messages)-1].Content
		if strings.Contains(last, "<<yes>> line 0") {
			return llmtest.Reply{Content: "Step 1: it is TRUE that both sets are terse. Step 2: the", FinishReason: "length"}
		}
		return llmtest.Reply{Content: fakeVerifier(req), FinishReason: "stop"}
	})
	dir := t.TempDir()
	cfg := srv.Config("fake-gpt", dir)
	client, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	test := items()
	ctx := context.Background()
	res, err := Run(ctx, client, test, nil, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Unparsed != 2 || res.Predictions[0].Predicted != nil || res.Predictions[3].Predicted != nil {
		t.Fatalf("cut and prose replies scored: unparsed %d, %+v", res.Unparsed, res.Predictions[:4])
	}
	if n, _ := client.Cache().Len(); n != len(test)-2 {
		t.Fatalf("%d cache entries, want %d (unusable replies cached)", n, len(test)-2)
	}
	before := len(srv.Requests())
	if res, err = Run(ctx, client, test, nil, Config{}, nil); err != nil || res.Unparsed != 2 {
		t.Fatalf("rerun: %v", err)
	}
	if asked := len(srv.Requests()) - before; asked != 2 {
		t.Fatalf("rerun asked %d requests, want the 2 unusable ones", asked)
	}

	// An older run cached the prose reply of p4: it is reported, not
	// replayed as a verdict, and asked again with --llm-refresh.
	msgs, err := Messages(test[3], nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	stale := client.Resolve(llm.Request{Messages: msgs})
	if err := client.Cache().Put(stale, &llm.Response{Content: "I cannot tell.", FinishReason: "stop"}); err != nil {
		t.Fatal(err)
	}
	before = len(srv.Requests())
	if res, err = Run(ctx, client, test, nil, Config{}, nil); err != nil || res.Unparsed != 2 || !res.Predictions[3].Cached {
		t.Fatalf("cached unusable reply: %v %+v", err, res.Predictions[3])
	}
	if asked := len(srv.Requests()) - before; asked != 1 {
		t.Fatalf("asked %d, want 1 (the cut reply; the cached one waits for --llm-refresh)", asked)
	}
	cfg.Refresh = llm.RefreshFailed
	refresh, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	before = len(srv.Requests())
	if _, err = Run(ctx, refresh, test, nil, Config{}, nil); err != nil {
		t.Fatal(err)
	}
	if asked := len(srv.Requests()) - before; asked != 2 {
		t.Fatalf("--llm-refresh asked %d, want the 2 failures", asked)
	}
}

func TestRunErrors(t *testing.T) {
	srv := llmtest.New(fakeVerifier)
	t.Cleanup(srv.Close)
	client, err := llm.New(srv.Config("fake-gpt", ""))
	if err != nil {
		t.Fatal(err)
	}
	srv.Fail(llmtest.BadRequest)
	_, err = Run(context.Background(), client, items()[:1], nil, Config{}, nil)
	if err == nil || !strings.Contains(err.Error(), "pair p1") || !strings.Contains(err.Error(), "400") {
		t.Fatalf("bad request: %v", err)
	}
	// K-shot without enough training pairs fails before any request.
	before := len(srv.Requests())
	_, err = Run(context.Background(), client, items(), items()[:2], Config{Prompting: Prompting{K: 4}}, nil)
	if err == nil || !strings.Contains(err.Error(), "4-shot needs 2 positive and 2 negative") || len(srv.Requests()) != before {
		t.Fatalf("k-shot without demonstrations: %v (%d requests sent)", err, len(srv.Requests())-before)
	}
	if _, err := Run(context.Background(), client, nil, nil, Config{}, nil); err == nil {
		t.Error("empty test accepted")
	}
}

func TestPrompts(t *testing.T) {
	test := items()
	msgs, err := Messages(test[0], nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].Role != "system" || !strings.Contains(msgs[1].Content, "Answer with one word: TRUE") {
		t.Fatalf("zero-shot: %+v", msgs)
	}
	msgs, _ = Messages(test[0], nil, Config{Prompting: Prompting{CoT: true}})
	if !strings.HasSuffix(msgs[1].Content, "Let's analyse step by step:") {
		t.Errorf("cot prompt ends %q", msgs[1].Content[len(msgs[1].Content)-40:])
	}
	// 4-shot: two positive and two negative demonstrations, never the item
	// itself, the same for a rerun, different for another item.
	demos, err := Demonstrations(test, 4, 1, "p1")
	if err != nil {
		t.Fatal(err)
	}
	pos := 0
	for _, d := range demos {
		if d.ID == "p1" {
			t.Error("item used as its own demonstration")
		}
		if d.Same {
			pos++
		}
	}
	if len(demos) != 4 || pos != 2 {
		t.Errorf("demos %d, %d positive", len(demos), pos)
	}
	again, _ := Demonstrations(test, 4, 1, "p1")
	for i := range demos {
		if demos[i].ID != again[i].ID {
			t.Error("demonstrations not reproducible")
		}
	}
	msgs, err = Messages(test[0], demos, Config{Prompting: Prompting{K: 4}})
	if err != nil || len(msgs) != 10 || msgs[2].Role != "assistant" || (msgs[2].Content != "TRUE" && msgs[2].Content != "FALSE") {
		t.Fatalf("4-shot messages: %d %v", len(msgs), err)
	}
}

func TestConversationView(t *testing.T) {
	recs := []genimport.PairRecord{{
		AnchorSpeaker: "Sheldon", AnchorUtterances: []string{"Bazinga!", "That's my spot."},
		AnchorConversation: []genimport.ConversationTurn{{Speaker: "Penny", Utterance: "Hi Sheldon."}, {Speaker: "Sheldon", Utterance: "Bazinga!"}, {Speaker: "Leonard", Utterance: "Oh no."}, {Speaker: "Sheldon", Utterance: "That's my spot."}},
		PairedSpeaker:      "Sheldon", PairedUtterances: []string{"Knock knock."},
		PairedConversation: []genimport.ConversationTurn{{Speaker: "Sheldon", Utterance: "Knock knock."}, {Speaker: "Penny", Utterance: "What?"}},
		Label:              1,
	}}
	it := ItemsFromRecords(recs, "r")
	msgs, err := Messages(it[0], nil, Config{View: Conversation})
	if err != nil {
		t.Fatal(err)
	}
	q := msgs[1].Content
	for _, want := range []string{"[Speaker 1]: Bazinga!", "[Other A]: Hi Sheldon.", "[Other B]: Oh no.", "[Speaker 2]: Knock knock.", "[Other A]: What?"} {
		if !strings.Contains(q, want) {
			t.Errorf("conversation prompt lacks %q:\n%s", want, q)
		}
	}
	if strings.Contains(q, "Penny:") || strings.Contains(q, "Sheldon:") {
		t.Errorf("speaker names leak into the prompt:\n%s", q)
	}
	// Without conversations, or with one conversation on both sides
	// (Harder level), the view does not apply.
	noConv := ItemsFromRecords([]genimport.PairRecord{{AnchorUtterances: []string{"a"}, PairedUtterances: []string{"b"}}}, "x")
	if _, err := Messages(noConv[0], nil, Config{View: Conversation}); err == nil {
		t.Error("conversation view without conversations accepted")
	}
	same := it[0]
	same.B = same.A
	if _, err := Messages(same, nil, Config{View: Conversation}); err == nil || !strings.Contains(err.Error(), "one conversation") {
		t.Errorf("harder pair: %v", err)
	}
	back := RecordsFromItems(it)
	if back[0].AnchorSpeaker != "Sheldon" || len(back[0].PairedConversation) != 2 || back[0].Label != 1 {
		t.Errorf("records %+v", back[0])
	}
}

func TestItemsFromPairCorpus(t *testing.T) {
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{
		"s1": {ID: "s1", Source: "tbbt", ConversationID: "c1", Speaker: "Sheldon", Texts: []string{"Bazinga!"}},
		"s2": {ID: "s2", Source: "tbbt", ConversationID: "c2", Speaker: "Penny", Texts: []string{"Hi."}},
	}}
	utts := []data.Utterance{
		{Source: "tbbt", ConversationID: "c1", Turn: 1, Speaker: "Sheldon", Text: "Bazinga!"},
		{Source: "tbbt", ConversationID: "c1", Turn: 0, Speaker: "Leonard", Text: "Sheldon?"},
		{Source: "tbbt", ConversationID: "c2", Turn: 0, Speaker: "Penny", Text: "Hi."},
	}
	got, err := ItemsFromPairCorpus(c, []pairs.Pair{{ID: "p", A: "s1", B: "s2", Label: 0}}, utts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Same || got[0].A.Conversation[0].Speaker != "Leonard" || len(got[0].B.Conversation) != 1 {
		t.Fatalf("items %+v", got)
	}
	if _, err := ItemsFromPairCorpus(c, []pairs.Pair{{ID: "q", A: "s1", B: "nope"}}, nil); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("missing set: %v", err)
	}
}

func TestSample(t *testing.T) {
	all := items()
	s, err := Sample(all, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	pos := 0
	for _, it := range s {
		if it.Same {
			pos++
		}
	}
	if len(s) != 4 || pos != 2 {
		t.Errorf("sample %d, %d positive", len(s), pos)
	}
	if _, err := Sample(all[:5], 4, 7); err == nil {
		t.Error("unbalanced sample accepted")
	}
	if s, _ := Sample(all, 0, 1); len(s) != len(all) {
		t.Error("n=0 should keep all")
	}
}
