package pairs_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
)

// checkCorpus asserts the invariants every PairCorpus from BuildPairs keeps:
// each split non-empty and exactly 1:1, labels true to the speakers, no
// pair of a set with itself, no repeated pair within a split, and every
// referenced set present.
func checkCorpus(t *testing.T, c *pairs.PairCorpus) {
	t.Helper()
	for name, pairList := range allSplits(c) {
		if len(pairList) == 0 {
			t.Errorf("%s: empty", name)
			continue
		}
		pos, seen := 0, map[[2]string]bool{}
		for _, p := range pairList {
			a, b := c.Sets[p.A], c.Sets[p.B]
			if a == nil || b == nil {
				t.Fatalf("%s: pair %s refers to a missing set", name, p.ID)
			}
			if p.A == p.B {
				t.Errorf("%s: pair %s pairs set %s with itself", name, p.ID, p.A)
			}
			same := speakerOf(a) == speakerOf(b)
			if same != (p.Label == 1) {
				t.Errorf("%s: pair %s label %d but speakers %q and %q", name, p.ID, p.Label, a.Speaker, b.Speaker)
			}
			key := [2]string{min(p.A, p.B), max(p.A, p.B)}
			if seen[key] {
				t.Errorf("%s: pair %s repeats sets %v", name, p.ID, key)
			}
			seen[key] = true
			pos += int(p.Label)
		}
		if 2*pos != len(pairList) {
			t.Errorf("%s: %d positives of %d pairs, want exactly half", name, pos, len(pairList))
		}
	}
}

func TestBuildPairsInvariants(t *testing.T) {
	c := mustBuild(t, pairFixture(fixtureConvs), pairs.DefaultPairConfig())
	checkCorpus(t, c)
	info := pairs.PairCorpusInfo(c)
	if info == nil || info.Variant != pairs.VariantPaper || info.Config == nil || info.Config.Seed != 1 {
		t.Fatalf("PairCorpusInfo = %+v, want the paper variant with its config", info)
	}
	if info.SpeakersUnseen == 0 || info.SpeakersDev == 0 || info.HeldOutSets == 0 {
		t.Errorf("no unseen/dev speakers or hold-outs: %+v", info)
	}
}

func TestBuildPairsFilters(t *testing.T) {
	utts := pairFixture(fixtureConvs)
	c := mustBuild(t, utts, pairs.DefaultPairConfig())
	for _, s := range c.Sets {
		switch s.Speaker {
		case "Man", "First Lord":
			t.Errorf("generic role %q kept", s.Speaker)
		case "Rare":
			t.Errorf("speaker with fewer than 5 sets kept")
		case "Terse":
			t.Errorf("set with fewer than 50 words kept")
		}
		if s.ConversationID == "short" {
			t.Errorf("conversation of 4 turns kept")
		}
		if s.AgentModel != "" {
			t.Errorf("generated set kept by default: %+v", s)
		}
		words := 0
		for _, x := range s.Texts {
			words += len(strings.Fields(x))
		}
		if len(s.Texts) < 5 || words < 50 {
			t.Errorf("set %s has %d utterances, %d words", s.ID, len(s.Texts), words)
		}
	}
	// Texts are in turn order although the rows were shuffled.
	turnOf := map[string]int32{}
	for _, u := range utts {
		turnOf[u.Source+"\x00"+u.Text] = u.Turn
	}
	for _, s := range c.Sets {
		for i := 1; i < len(s.Texts); i++ {
			if turnOf[s.Source+"\x00"+s.Texts[i-1]] > turnOf[s.Source+"\x00"+s.Texts[i]] {
				t.Fatalf("set %s texts out of turn order: %q before %q", s.ID, s.Texts[i-1], s.Texts[i])
			}
		}
	}
	info := pairs.PairCorpusInfo(c)
	if info.Input.ExcludedNames["Man"] == 0 || info.Input.ExcludedNames["First Lord"] == 0 ||
		info.Input.GeneratedDropped == 0 || info.Input.ConversationsShort != len(pairFixtureSources) {
		t.Errorf("input counts do not show the filters: %+v", info.Input)
	}

	// Unscoped and scoped exclusions; an exact name does not match others.
	cfg := pairs.DefaultPairConfig()
	cfg.ExcludeSpeakers = []string{"beta:Ann", "Bob"}
	c = mustBuild(t, utts, cfg)
	var annSources []string
	for _, s := range c.Sets {
		if s.Speaker == "Bob" {
			t.Fatalf("excluded Bob kept")
		}
		if s.Speaker == "Ann" && !slices.Contains(annSources, s.Source) {
			annSources = append(annSources, s.Source)
		}
	}
	slices.Sort(annSources)
	if want := []string{"alpha", "play/one", "play/two"}; !slices.Equal(annSources, want) {
		t.Errorf("scoped exclusion beta:Ann: Ann kept in %v, want %v", annSources, want)
	}

	// IncludeGenerated keeps agent rows as speakers of their own.
	cfg = pairs.DefaultPairConfig()
	cfg.IncludeGenerated = true
	cfg.MinSpeakerSets = 2
	cfg.MinSetUtterances, cfg.MinSetWords = 1, 1
	c = mustBuild(t, utts, cfg)
	found := false
	for _, p := range slices.Concat(c.Train, c.Dev, c.Tests[pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}]) {
		a, b := c.Sets[p.A], c.Sets[p.B]
		if a.AgentModel != "" || b.AgentModel != "" {
			found = true
			if (a.AgentModel == b.AgentModel) != (p.Label == 1) && a.Speaker == b.Speaker && a.Source == b.Source {
				t.Errorf("agent and real %s labelled the same speaker: %+v", a.Speaker, p)
			}
		}
	}
	if !found {
		t.Errorf("IncludeGenerated: no generated set in train, dev or unseen-unseen-base")
	}
}

func TestBuildPairsDeterministic(t *testing.T) {
	utts := pairFixture(fixtureConvs)
	a := mustBuild(t, utts, pairs.DefaultPairConfig())
	b := mustBuild(t, slices.Clone(utts), pairs.DefaultPairConfig())
	if !reflect.DeepEqual(a.Train, b.Train) || !reflect.DeepEqual(a.Tests, b.Tests) || !reflect.DeepEqual(a.Dev, b.Dev) {
		t.Fatal("same seed gave different pairs")
	}
	cfg := pairs.DefaultPairConfig()
	cfg.Seed = 2
	c := mustBuild(t, utts, cfg)
	if reflect.DeepEqual(a.Train, c.Train) {
		t.Error("seeds 1 and 2 gave the same training pairs")
	}
	// Set IDs do not depend on the seed.
	for id, s := range c.Sets {
		if o := a.Sets[id]; o != nil && (o.Speaker != s.Speaker || o.ConversationID != s.ConversationID || o.Source != s.Source) {
			t.Fatalf("set %s differs between seeds: %+v vs %+v", id, o, s)
		}
	}
}

// roles recomputes who is seen, unseen and dev from the pairs alone.
func roles(c *pairs.PairCorpus) (train, unseen, dev map[string]bool) {
	train, unseen, dev = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, p := range c.Train {
		train[speakerOf(c.Sets[p.A])], train[speakerOf(c.Sets[p.B])] = true, true
	}
	for _, l := range pairs.Levels {
		for _, p := range c.Tests[pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: l}] {
			unseen[speakerOf(c.Sets[p.A])], unseen[speakerOf(c.Sets[p.B])] = true, true
		}
	}
	for _, p := range c.Dev {
		dev[speakerOf(c.Sets[p.A])], dev[speakerOf(c.Sets[p.B])] = true, true
	}
	return train, unseen, dev
}

func TestBuildPairsUnseenIsolation(t *testing.T) {
	utts := pairFixture(fixtureConvs)
	for _, by := range []string{pairs.DatasetByCorpus, pairs.DatasetBySource} {
		cfg := pairs.DefaultPairConfig()
		cfg.DatasetBy = by
		c := mustBuild(t, utts, cfg)
		checkCorpus(t, c)
		train, unseen, dev := roles(c)
		if len(unseen) < 2 || len(dev) < 2 {
			t.Fatalf("%s: %d unseen and %d dev speakers, want ≥ 2 each", by, len(unseen), len(dev))
		}
		// Conversations where an unseen or dev speaker says anything.
		heldConv := map[string]bool{}
		for _, u := range utts {
			k := u.Source + "\x00" + u.Speaker + "\x00" + u.AgentModel
			if unseen[k] || dev[k] {
				heldConv[u.Source+"\x00"+u.ConversationID] = true
			}
		}
		trainSets := map[string]bool{}
		for _, p := range c.Train {
			trainSets[p.A], trainSets[p.B] = true, true
		}
		for id := range trainSets {
			s := c.Sets[id]
			if unseen[speakerOf(s)] || dev[speakerOf(s)] {
				t.Errorf("%s: held-out speaker %s in training", by, s.Speaker)
			}
			if heldConv[convOf(s)] {
				t.Errorf("%s: training set %s comes from conversation %s/%s where a held-out speaker speaks", by, id, s.Source, s.ConversationID)
			}
		}
		for spk := range unseen {
			if dev[spk] {
				t.Errorf("%s: speaker %q both unseen and dev", by, spk)
			}
		}
		// Seen-Seen and Seen-Unseen involve seen speakers only; dev only dev.
		for _, e := range []pairs.Exposure{pairs.SeenSeen, pairs.SeenUnseen} {
			for _, l := range pairs.Levels {
				for _, p := range c.Tests[pairs.TestKey{Exposure: e, Level: l}] {
					for _, id := range []string{p.A, p.B} {
						if k := speakerOf(c.Sets[id]); unseen[k] || dev[k] {
							t.Fatalf("%s: %s-%s pair %s has held-out speaker %q", by, e, l, p.ID, c.Sets[id].Speaker)
						}
					}
				}
			}
		}
		for spk := range dev {
			if train[spk] {
				t.Errorf("%s: dev speaker %q in training", by, spk)
			}
		}
	}
}

func TestBuildPairsLevelSemantics(t *testing.T) {
	c := mustBuild(t, pairFixture(fixtureConvs), pairs.DefaultPairConfig())
	for _, e := range pairs.Exposures {
		for _, l := range pairs.Levels {
			k := pairs.TestKey{Exposure: e, Level: l}
			crossSource := 0
			for _, p := range c.Tests[k] {
				if p.Level != l {
					t.Errorf("%s pair %s has level %q", k, p.ID, p.Level)
				}
				a, b := c.Sets[p.A], c.Sets[p.B]
				if p.Label == 1 {
					// One speaker: the same source, two conversations.
					if a.Source != b.Source || a.ConversationID == b.ConversationID {
						t.Errorf("%s positive %s: %s/%s vs %s/%s", k, p.ID, a.Source, a.ConversationID, b.Source, b.ConversationID)
					}
					continue
				}
				switch l {
				case pairs.Hard:
					if a.Source != b.Source {
						t.Errorf("%s negative %s crosses sources %s, %s", k, p.ID, a.Source, b.Source)
					}
				case pairs.Harder:
					if convOf(a) != convOf(b) {
						t.Errorf("%s negative %s: conversations %s/%s and %s/%s differ", k, p.ID, a.Source, a.ConversationID, b.Source, b.ConversationID)
					}
				case pairs.Base:
					if a.Source != b.Source {
						crossSource++
					}
				}
			}
			if l == pairs.Base && crossSource == 0 {
				t.Errorf("%s: no negative crosses sources; Base should draw from any source", k)
			}
		}
	}
	// Dev pairs record the level they were made for (Table 2 chooses a
	// threshold per level on them), and their negatives follow it.
	devLevels := map[pairs.Level]int{}
	for _, p := range c.Dev {
		devLevels[p.Level]++
		a, b := c.Sets[p.A], c.Sets[p.B]
		if p.Label == 1 {
			continue
		}
		if (p.Level == pairs.Hard && a.Source != b.Source) || (p.Level == pairs.Harder && convOf(a) != convOf(b)) {
			t.Errorf("dev %s negative %s: %s/%s vs %s/%s", p.Level, p.ID, a.Source, a.ConversationID, b.Source, b.ConversationID)
		}
	}
	if devLevels[pairs.Base] == 0 || devLevels[""] != 0 {
		t.Errorf("dev levels %v, want Base pairs and none without a level", devLevels)
	}
}

func TestBuildPairsExposureSemantics(t *testing.T) {
	c := mustBuild(t, pairFixture(fixtureConvs), pairs.DefaultPairConfig())
	trainSets, trainPairs := map[string]bool{}, map[[2]string]bool{}
	for _, p := range c.Train {
		trainSets[p.A], trainSets[p.B] = true, true
		trainPairs[[2]string{min(p.A, p.B), max(p.A, p.B)}] = true
	}
	for _, l := range pairs.Levels {
		for _, p := range c.Tests[pairs.TestKey{Exposure: pairs.SeenSeen, Level: l}] {
			if !trainSets[p.A] || !trainSets[p.B] {
				t.Errorf("seen-seen-%s pair %s uses a set not seen in training", l, p.ID)
			}
			if trainPairs[[2]string{min(p.A, p.B), max(p.A, p.B)}] {
				t.Errorf("seen-seen-%s pair %s is a training pair", l, p.ID)
			}
		}
		for _, p := range c.Tests[pairs.TestKey{Exposure: pairs.SeenUnseen, Level: l}] {
			if trainSets[p.A] == trainSets[p.B] {
				t.Errorf("seen-unseen-%s pair %s: want one training set and one held-out set (got %v, %v)", l, p.ID, trainSets[p.A], trainSets[p.B])
			}
		}
		for _, p := range c.Tests[pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: l}] {
			if trainSets[p.A] || trainSets[p.B] {
				t.Errorf("unseen-unseen-%s pair %s uses a training set", l, p.ID)
			}
		}
	}
	// Dev sets appear in no other split.
	other := map[string]bool{}
	for name, pairList := range allSplits(c) {
		if name == "dev" {
			continue
		}
		for _, p := range pairList {
			other[p.A], other[p.B] = true, true
		}
	}
	for _, p := range c.Dev {
		if other[p.A] || other[p.B] {
			t.Errorf("dev pair %s shares a set with train or test", p.ID)
		}
	}
}

func TestBuildPairsCaps(t *testing.T) {
	cfg := pairs.DefaultPairConfig()
	cfg.MaxTrainPairs, cfg.MaxTestPairs, cfg.MaxDevPairs = 51, 10, 7
	c := mustBuild(t, pairFixture(fixtureConvs), cfg)
	checkCorpus(t, c)
	if n := len(c.Train); n > 51 || n < 46 {
		t.Errorf("train has %d pairs, want ≤ 51 and near it", n)
	}
	for k, p := range c.Tests {
		if len(p) > 10 {
			t.Errorf("%s has %d pairs, cap 10", k, len(p))
		}
	}
	if len(c.Dev) > 7 {
		t.Errorf("dev has %d pairs, cap 7", len(c.Dev))
	}
	for _, s := range pairs.PairCorpusInfo(c).Splits {
		if s.Name == "train" && !s.Capped {
			t.Errorf("train split not marked capped: %+v", s)
		}
	}
}

func TestBuildPairsTooSmall(t *testing.T) {
	// Every conversation has the two main roles and one minor speaker, so
	// no two unseen speakers ever share a conversation.
	var utts []data.Utterance
	for c := range 60 {
		conv := string(rune('a'+c/26)) + string(rune('a'+c%26))
		minor := []string{"Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"}[c%10]
		for line := range 6 {
			for _, spk := range []string{"Rachel", "Joey", minor} {
				utts = append(utts, data.Utterance{Source: "show", ConversationID: conv, Turn: int32(3*line + len(utts)%3),
					Speaker: spk, Text: spk + " speaks ten words in this line of the show now"})
			}
		}
	}
	_, err := pairs.BuildPairs(utts, pairs.DefaultPairConfig())
	if err == nil {
		t.Fatal("want an error: no conversation has two unseen speakers")
	}
	for _, want := range []string{"unseen-unseen-harder: no conversation has sets of two unseen speakers"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "unseen-unseen-base:") {
		t.Errorf("error blames unseen-unseen-base, which has pairs: %v", err)
	}
	cfg := pairs.DefaultPairConfig()
	cfg.AllowEmptySplits = true
	c, err := pairs.BuildPairs(utts, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tests[pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Harder}]) != 0 || len(c.Train) == 0 {
		t.Errorf("AllowEmptySplits: want empty unseen-unseen-harder and non-empty train")
	}
	if notes := strings.Join(pairs.PairCorpusInfo(c).Notes, "\n"); !strings.Contains(notes, "unseen-unseen-harder") {
		t.Errorf("notes do not explain the empty split: %q", notes)
	}

	// Nothing passes the filters.
	_, err = pairs.BuildPairs(utts[:10], pairs.DefaultPairConfig())
	if err == nil || !strings.Contains(err.Error(), "no utterance set passed the filters") {
		t.Errorf("tiny corpus: got %v", err)
	}
	// Bad config names the field.
	cfg = pairs.DefaultPairConfig()
	cfg.TrainLevels = []pairs.Level{"hardest"}
	if _, err := pairs.BuildPairs(utts, cfg); err == nil || !strings.Contains(err.Error(), "train_levels") {
		t.Errorf("bad level: got %v", err)
	}
	// Invalid rows are named.
	bad := slices.Clone(utts)
	bad[5].Speaker = ""
	if _, err := pairs.BuildPairs(bad, pairs.DefaultPairConfig()); err == nil || !strings.Contains(err.Error(), "utterance 5") {
		t.Errorf("invalid row: got %v", err)
	}
}

func TestBuildPairsCodeVariant(t *testing.T) {
	cfg := pairs.DefaultPairConfig()
	cfg.Variant = pairs.VariantCode
	c := mustBuild(t, pairFixture(fixtureConvs), cfg)
	if pairs.PairCorpusInfo(c).Variant != pairs.VariantCode {
		t.Fatal("variant not recorded")
	}
	pos := 0
	train := map[[2]string]bool{}
	for _, p := range c.Train {
		pos += int(p.Label)
		train[[2]string{min(p.A, p.B), max(p.A, p.B)}] = true
	}
	if neg := len(c.Train) - pos; 2*neg < 3*pos {
		t.Errorf("code variant train: %d positives, %d negatives; want the code's surplus of negatives", pos, neg)
	}
	for _, l := range []pairs.Level{pairs.Hard, pairs.Harder} {
		test := c.Tests[pairs.TestKey{Exposure: pairs.SeenSeen, Level: l}]
		if len(test) == 0 {
			t.Fatalf("seen-seen-%s empty", l)
		}
		p1 := 0
		for _, p := range test {
			p1 += int(p.Label)
			if !train[[2]string{min(p.A, p.B), max(p.A, p.B)}] {
				t.Errorf("code variant seen-seen-%s pair %s is not a training pair", l, p.ID)
			}
		}
		if 2*p1 != len(test) {
			t.Errorf("seen-seen-%s: %d of %d positive", l, p1, len(test))
		}
	}
}

func TestPairConfigValidate(t *testing.T) {
	d := pairs.DefaultPairConfig()
	if err := d.Validate(); err != nil {
		t.Fatalf("default config invalid: %v", err)
	}
	cases := map[string]func(*pairs.PairConfig){
		"variant":          func(c *pairs.PairConfig) { c.Variant = "both" },
		"dataset_by":       func(c *pairs.PairConfig) { c.DatasetBy = "play" },
		"min_speaker_sets": func(c *pairs.PairConfig) { c.MinSpeakerSets = 1 },
		"max_test_pairs":   func(c *pairs.PairConfig) { c.MaxTestPairs = 1 },
		"speaker pattern":  func(c *pairs.PairConfig) { c.ExcludeSpeakers = []string{"[Man"} },
		"listed twice":     func(c *pairs.PairConfig) { c.TrainLevels = []pairs.Level{pairs.Hard, pairs.Hard} },
	}
	for want, edit := range cases {
		c := pairs.DefaultPairConfig()
		edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v", want, err)
		}
	}
}
