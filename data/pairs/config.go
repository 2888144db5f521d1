package pairs

import (
	"fmt"
	"path"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// PairVariant chooses between the paper's text and its public code where
// the two differ (see docs/pairs.md and /work/shared/notes/pairs.md).
type PairVariant string

const (
	// VariantPaper follows the paper's text: training pairs are balanced
	// 1:1, and the Seen-Seen test sets pair the training sets anew (no
	// Seen-Seen test pair is a training pair). The default.
	VariantPaper PairVariant = "paper"
	// VariantCode follows the authors' data/process.py: each training
	// anchor gets one positive and CodeTrainNegatives (3) Hard negatives, so
	// the training pairs are NOT balanced, and the Seen-Seen Hard and Harder
	// test sets are a CodeSeenSeenFraction (5 %) sample of the training
	// pairs themselves (they stay in training, as in the code), rebalanced
	// to 1:1. Offered to reproduce the published numbers' setup; it leaks
	// test pairs into training.
	VariantCode PairVariant = "code"
)

// Dataset groupings for the unseen/dev speaker selection (PairConfig.DatasetBy).
const (
	// DatasetByCorpus groups sources by the part of Source before the first
	// "/": every "shakespeare/<play>" source is one dataset "shakespeare",
	// as the paper treats Friends or TBBT as one dataset each. The default.
	DatasetByCorpus = "corpus"
	// DatasetBySource makes every source its own dataset, so each play
	// contributes its own unseen speakers (many more unseen speakers).
	DatasetBySource = "source"
)

// Base-level negative sources (PairConfig.BaseNegatives).
const (
	// BaseNegativesSource draws a Base negative from a speaker of another
	// source than the anchor's, as the paper's §3 builds the Base level
	// ("Hermione Granger (Harry Potter) and Sheldon Cooper (The Big Bang
	// Theory)"). The default.
	BaseNegativesSource = "source"
	// BaseNegativesAny draws a Base negative from any other speaker, of any
	// source (RolePrint's behaviour before the option existed; manifests
	// written then read "" and mean this).
	BaseNegativesAny = "any"
)

// PairConfig holds every knob of BuildPairs. DefaultPairConfig fills it with
// the paper's values; a zero PairConfig is not valid. The resolved config is
// recorded in the pair directory's manifest.json.
type PairConfig struct {
	// Variant is VariantPaper (default) or VariantCode.
	Variant PairVariant `json:"variant"`
	// Seed drives every random choice; the same input, config and seed give
	// byte-identical pair files. Default 1.
	Seed int64 `json:"seed"`

	// MinConversationTurns drops conversations with fewer utterances, counted
	// over all speakers, generic roles included (generated rows excluded
	// unless IncludeGenerated): the paper's "≥ 5 exchanges"; its code skips
	// Friends scenes with < 5 utterances. Default 5.
	MinConversationTurns int `json:"min_conversation_turns"`
	// MinSetUtterances and MinSetWords: an utterance set (one speaker in one
	// conversation) is kept when it has at least this many utterances and
	// whitespace-separated words. Defaults 5 and 50, as in the paper.
	MinSetUtterances int `json:"min_set_utterances"`
	MinSetWords      int `json:"min_set_words"`
	// MinSpeakerSets drops speakers with fewer kept sets. Default 5.
	MinSpeakerSets int `json:"min_speaker_sets"`
	// ExcludeSpeakers lists generic roles that are not identities ("Man",
	// "Messenger", "First Lord"), matched case-insensitively against the
	// whole speaker name. An entry may be a glob pattern ("First *",
	// "*'s *"; see path.Match) and may be scoped to one corpus with a
	// "corpus:" prefix ("friends:Nurse" drops Friends' nurses but keeps
	// Romeo and Juliet's Nurse); the prefix "*:" applies an entry to every
	// corpus and lets the pattern hold a colon ("*:therapist:*"). Default
	// DefaultExcludedSpeakers().
	ExcludeSpeakers []string `json:"exclude_speakers"`
	// Aliases merge speaker labels that name one person, before any other
	// filter: each entry is "From=To" ("Lesley=Leslie"), scoped to a
	// corpus as in ExcludeSpeakers ("tbbt:Dr Hofstadter=Beverly"). From is
	// matched case-insensitively against the whole name (no glob); the
	// sets carry To. Default data.SpeakerAliases().
	Aliases []string `json:"aliases"`
	// IncludeGenerated keeps agent-generated utterances (AgentModel set).
	// Their speaker identity includes the agent model, so an agent playing
	// Sheldon is never the real Sheldon. Default false: generated rows are
	// dropped and counted.
	IncludeGenerated bool `json:"include_generated"`

	// BaseNegatives is BaseNegativesSource (default: a Base negative is a
	// set of a speaker of another source) or BaseNegativesAny (any other
	// speaker). When a split's negative pool holds sets of one source only
	// (a one-source input, or dev speakers of one play), its Base
	// negatives come from any source and PairInfo.Notes says so. "" reads
	// as BaseNegativesAny (manifests written before the field existed).
	BaseNegatives string `json:"base_negatives"`

	// DatasetBy is DatasetByCorpus (default) or DatasetBySource: the unit
	// within which unseen and dev speakers are drawn.
	DatasetBy string `json:"dataset_by"`
	// MainRoles are never drawn as unseen or dev speakers (the paper's
	// main roles: Chandler, Rachel, Joey, Harry, Hermione, Ron, Voldemort,
	// Sheldon, Penny, Leonard). Case-insensitive; an entry also matches a
	// speaker whose name starts with it followed by a space ("Rachel"
	// matches "Rachel Green"). Scoping as in ExcludeSpeakers.
	MainRoles []string `json:"main_roles"`
	// UnseenMaxSets: only speakers with fewer sets are unseen/dev
	// candidates. Default 50.
	UnseenMaxSets int `json:"unseen_max_sets"`
	// UnseenPerDataset and UnseenDivisor: each dataset holds out
	// min(UnseenPerDataset, candidates/UnseenDivisor) unseen speakers.
	// Defaults 5 and 3, as in the paper's code.
	UnseenPerDataset int `json:"unseen_per_dataset"`
	UnseenDivisor    int `json:"unseen_divisor"`
	// DevPerDataset: each dataset then holds out
	// min(DevPerDataset, remaining candidates/UnseenDivisor) dev speakers,
	// found in neither train nor test. Default 2.
	DevPerDataset int `json:"dev_per_dataset"`
	// PreferCooccurring draws unseen (and dev) speakers in a random order
	// that builds pairs of candidates sharing a conversation, each pair
	// from a source not drawn yet where the dataset has several sources:
	// the Unseen-Unseen Harder level (two unseen speakers of one
	// conversation) and Hard level (two of one source) have pairs, and so
	// has the Base level with cross-source negatives (BaseNegatives).
	// False draws uniformly, as the paper's code. Default true.
	PreferCooccurring bool `json:"prefer_cooccurring"`

	// HoldOut sets of every seen speaker are kept out of training for the
	// Seen-Unseen tests; HoldOutLarge when the speaker has at least
	// HoldOutLargeFrom sets. Defaults 1, 2 and 20, as in the paper's code.
	HoldOut          int `json:"hold_out"`
	HoldOutLarge     int `json:"hold_out_large"`
	HoldOutLargeFrom int `json:"hold_out_large_from"`
	// SeenSeenPerSpeaker gives each seen speaker as many Seen-Seen couples
	// (TestPairsPerAnchor each) as it has Seen-Unseen hold-outs (HoldOut,
	// or HoldOutLarge; at least one), anchored on its sets in training
	// pairs, so the two seen exposures have the same speaker mix and differ
	// only in whether the sets were trained on. The paper's
	// Table 5 shows this shape: Seen-Seen and Seen-Unseen involve about as
	// many speakers (1,874 and 1,924 at the Base level) with about two pairs
	// per speaker. False draws anchors among all training sets alike, so a
	// speaker weighs by its number of sets and a few main characters with
	// hundreds of scenes dominate the Seen-Seen tests (91 % of the anchors
	// on Friends + TBBT + AnnoMI + Shakespeare). Default true; manifests
	// written before the field existed read as false, which is how they
	// were built.
	SeenSeenPerSpeaker bool `json:"seen_seen_per_speaker"`

	// TrainLevels are the negative kinds of the training pairs: for every
	// training set (anchor) and level, TrainPairsPerAnchor times one
	// positive and one negative of that level. Default base, hard, harder.
	TrainLevels []Level `json:"train_levels"`
	// TrainPairsPerAnchor: see TrainLevels. Default 1.
	TrainPairsPerAnchor int `json:"train_pairs_per_anchor"`
	// TestPairsPerAnchor: positive/negative couples per anchor in each test
	// and dev split. Default 1, as in the paper's code.
	TestPairsPerAnchor int `json:"test_pairs_per_anchor"`
	// MaxTrainPairs, MaxTestPairs (per test split) and MaxDevPairs cap the
	// splits so big corpora stay fast; anchors are taken in a seeded random
	// order until the cap is reached. Defaults 200,000, 4,000 and 1,500
	// (the paper's Table 5 has 184,372, 2,160–4,312 and 1,278).
	MaxTrainPairs int `json:"max_train_pairs"`
	MaxTestPairs  int `json:"max_test_pairs"`
	MaxDevPairs   int `json:"max_dev_pairs"`

	// CodeTrainNegatives and CodeSeenSeenFraction only apply to
	// VariantCode (defaults 3 and 0.05, from the paper's code).
	CodeTrainNegatives   int     `json:"code_train_negatives"`
	CodeSeenSeenFraction float64 `json:"code_seen_seen_fraction"`

	// AllowEmptySplits lets BuildPairs succeed when some split has no pair
	// (the split is left empty and the reason recorded in PairInfo.Notes).
	// Default false: BuildPairs fails, naming every empty split and why.
	AllowEmptySplits bool `json:"allow_empty_splits"`

	// Progress, when set, is called as the build advances: stage names a
	// phase ("sets", "train", "seen-seen-base", ...), done/total count its
	// work. Not recorded.
	Progress func(stage string, done, total int) `json:"-"`
}

// DefaultPairConfig returns the paper's settings (see each field).
func DefaultPairConfig() PairConfig {
	return PairConfig{
		Variant:              VariantPaper,
		Seed:                 1,
		MinConversationTurns: 5,
		MinSetUtterances:     5,
		MinSetWords:          50,
		MinSpeakerSets:       5,
		ExcludeSpeakers:      DefaultExcludedSpeakers(),
		Aliases:              data.SpeakerAliases(),
		BaseNegatives:        BaseNegativesSource,
		DatasetBy:            DatasetByCorpus,
		MainRoles:            DefaultMainRoles(),
		UnseenMaxSets:        50,
		UnseenPerDataset:     5,
		UnseenDivisor:        3,
		DevPerDataset:        2,
		PreferCooccurring:    true,
		HoldOut:              1,
		HoldOutLarge:         2,
		HoldOutLargeFrom:     20,
		SeenSeenPerSpeaker:   true,
		TrainLevels:          []Level{Base, Hard, Harder},
		TrainPairsPerAnchor:  1,
		TestPairsPerAnchor:   1,
		MaxTrainPairs:        200_000,
		MaxTestPairs:         4_000,
		MaxDevPairs:          1_500,
		CodeTrainNegatives:   3,
		CodeSeenSeenFraction: 0.05,
	}
}

// DefaultMainRoles returns the paper's main roles, never held out.
func DefaultMainRoles() []string {
	return []string{"Chandler", "Rachel", "Joey", "Harry", "Hermione", "Ron", "Voldemort",
		"Sheldon", "Penny", "Leonard"}
}

// DefaultExcludedSpeakers returns the generic roles dropped by default: the
// generic names of the paper's code lists for Friends, TBBT and Harry
// Potter, patterns for their one-off descriptive roles ("Joey's Doctor",
// "Man On Tv", "Fireman No. 3", "Girl 1"), Shakespeare's generic roles
// (messengers, servants, numbered lords and citizens), and AnnoMI's
// therapists ("therapist:<transcript>": the client is the verified speaker;
// therapist lines stay in the corpus as context). Shakespeare's single
// characters with generic names (Romeo and Juliet's Nurse, Lear's Fool,
// the Clowns, a play's "King") are kept: a speaker is (source, name), so
// they are one person each.
func DefaultExcludedSpeakers() []string {
	return []string{
		// Groups and several speakers at once.
		"All", "#All#", "Both", "Others", "Other", "Gang", "Everyone", "Guys", "The Guys", "The Girls",
		"Kids", "Students", "Crowd", "Lords", "Ladies", "Servants", "Citizens", "Soldiers",
		"Attendants", "Senators", "Officers", "Gentlemen", "Musicians", "Watch", "Players",
		"Conspirators", "Murderers", "Outlaws", "Sailors", "Tribunes", "Plebeians", "Commons",
		"Quartet", "Strangers *", "Classmates",
		// Anonymous people and voices (everywhere).
		"Man", "Woman", "Guy", "Girl", "Boy", "Kid", "Voice", "Hold Voice", "Intercom",
		"Answering Machine", "Machine", "Message", "Announcer", "Tv Announcer", "Customer",
		"Waiter", "Waitress", "Receptionist", "Interviewer", "Stranger", "Friend", "Student",
		"Teacher", "Cop", "Policeman", "Security Guard", "Passenger", "Photographer", "Singer",
		"Director", "Assistant", "Wizard", "Realtor", "Intern", "Supervisor", "Hooker",
		// Corpus-specific generic roles (the paper's code lists them for Friends/TBBT).
		"friends:Nurse", "friends:Doctor", "friends:Host", "tbbt:Nurse", "tbbt:Missy",
		// One-off descriptive roles.
		"The *", "*'s *", "* On Tv", "* No. *", "* #*", "* [0-9]", "Man *", "Woman *",
		// Shakespeare's generic and numbered roles.
		"Messenger", "Servant", "Lord", "Lady", "Citizen", "Soldier", "Attendant", "Gentleman",
		"Gentlewoman", "Officer", "Senator", "Sailor", "Murderer", "Herald", "Watchman",
		"Musician", "Keeper", "Gaoler", "Sheriff", "Ambassador", "Patrician", "Tribune",
		"Captain", "Lieutenant", "Sergeant", "Scout", "Post", "Guard", "Outlaw",
		"First *", "Second *", "Third *", "Fourth *", "Fifth *", "Sixth *", "Seventh *",
		// AnnoMI's therapists (the annomi importer's "therapist:<transcript>").
		"*:therapist:*",
	}
}

// Validate reports the first setting that cannot work, naming the field.
func (c *PairConfig) Validate() error {
	switch {
	case c.Variant != VariantPaper && c.Variant != VariantCode:
		return fmt.Errorf("pair config: variant %q: want %q or %q", c.Variant, VariantPaper, VariantCode)
	case c.DatasetBy != DatasetByCorpus && c.DatasetBy != DatasetBySource:
		return fmt.Errorf("pair config: dataset_by %q: want %q or %q", c.DatasetBy, DatasetByCorpus, DatasetBySource)
	case c.BaseNegatives != "" && c.BaseNegatives != BaseNegativesSource && c.BaseNegatives != BaseNegativesAny:
		return fmt.Errorf("pair config: base_negatives %q: want %q or %q", c.BaseNegatives, BaseNegativesSource, BaseNegativesAny)
	case c.MinConversationTurns < 1:
		return fmt.Errorf("pair config: min_conversation_turns %d: want ≥ 1", c.MinConversationTurns)
	case c.MinSetUtterances < 1:
		return fmt.Errorf("pair config: min_set_utterances %d: want ≥ 1", c.MinSetUtterances)
	case c.MinSetWords < 0:
		return fmt.Errorf("pair config: min_set_words %d: want ≥ 0", c.MinSetWords)
	case c.MinSpeakerSets < 2:
		return fmt.Errorf("pair config: min_speaker_sets %d: want ≥ 2 (a positive pair needs two sets)", c.MinSpeakerSets)
	case c.UnseenMaxSets < 1:
		return fmt.Errorf("pair config: unseen_max_sets %d: want ≥ 1", c.UnseenMaxSets)
	case c.UnseenPerDataset < 0 || c.DevPerDataset < 0:
		return fmt.Errorf("pair config: unseen_per_dataset %d, dev_per_dataset %d: want ≥ 0", c.UnseenPerDataset, c.DevPerDataset)
	case c.UnseenDivisor < 1:
		return fmt.Errorf("pair config: unseen_divisor %d: want ≥ 1", c.UnseenDivisor)
	case c.HoldOut < 0 || c.HoldOutLarge < 0 || c.HoldOutLargeFrom < 0:
		return fmt.Errorf("pair config: hold_out %d, hold_out_large %d, hold_out_large_from %d: want ≥ 0",
			c.HoldOut, c.HoldOutLarge, c.HoldOutLargeFrom)
	case len(c.TrainLevels) == 0:
		return fmt.Errorf("pair config: train_levels is empty: want some of %v", Levels)
	case c.TrainPairsPerAnchor < 1 || c.TestPairsPerAnchor < 1:
		return fmt.Errorf("pair config: train_pairs_per_anchor %d, test_pairs_per_anchor %d: want ≥ 1",
			c.TrainPairsPerAnchor, c.TestPairsPerAnchor)
	case c.MaxTrainPairs < 2 || c.MaxTestPairs < 2 || c.MaxDevPairs < 2:
		return fmt.Errorf("pair config: max_train_pairs %d, max_test_pairs %d, max_dev_pairs %d: want ≥ 2 (one positive and one negative)",
			c.MaxTrainPairs, c.MaxTestPairs, c.MaxDevPairs)
	case c.Variant == VariantCode && c.CodeTrainNegatives < 1:
		return fmt.Errorf("pair config: code_train_negatives %d: want ≥ 1", c.CodeTrainNegatives)
	case c.Variant == VariantCode && (c.CodeSeenSeenFraction <= 0 || c.CodeSeenSeenFraction > 1):
		return fmt.Errorf("pair config: code_seen_seen_fraction %g: want in (0, 1]", c.CodeSeenSeenFraction)
	}
	seen := map[Level]bool{}
	for _, l := range c.TrainLevels {
		if l != Base && l != Hard && l != Harder {
			return fmt.Errorf("pair config: train_levels: unknown level %q (want %v)", l, Levels)
		}
		if seen[l] {
			return fmt.Errorf("pair config: train_levels: level %q listed twice", l)
		}
		seen[l] = true
	}
	if _, err := newAliasMap(c.Aliases); err != nil {
		return err
	}
	for _, list := range [][]string{c.ExcludeSpeakers, c.MainRoles} {
		for _, e := range list {
			if _, pat := splitScope(e); strings.TrimSpace(pat) == "" {
				return fmt.Errorf("pair config: empty speaker pattern %q", e)
			} else if _, err := path.Match(strings.ToLower(pat), ""); err != nil {
				return fmt.Errorf("pair config: speaker pattern %q: %w", e, err)
			}
		}
	}
	return nil
}

// CorpusOf returns the corpus part of a source: the text before the first
// "/" ("shakespeare/hamlet" → "shakespeare", "tbbt" → "tbbt").
func CorpusOf(source string) string {
	if i := strings.IndexByte(source, '/'); i >= 0 {
		return source[:i]
	}
	return source
}

// splitScope splits "corpus:pattern" into its scope and pattern; an entry
// without a scope applies everywhere. Only a prefix made of letters,
// digits, "-" and "_" counts as a scope, so "Mr. X: the elder" is a name.
// The scope "*" means every corpus, for patterns holding a colon
// themselves ("*:therapist:*").
func splitScope(entry string) (scope, pattern string) {
	if rest, ok := strings.CutPrefix(entry, "*:"); ok {
		return "", rest
	}
	i := strings.IndexByte(entry, ':')
	if i <= 0 {
		return "", entry
	}
	for _, r := range entry[:i] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "", entry
		}
	}
	return strings.ToLower(entry[:i]), entry[i+1:]
}

// speakerMatcher matches speaker names against ExcludeSpeakers or MainRoles
// entries, caching the verdict per (corpus, name).
type speakerMatcher struct {
	entries []matchEntry
	prefix  bool // also match "entry " prefixes (MainRoles)
	cache   map[[2]string]bool
}

type matchEntry struct {
	scope, pattern string // lower case
	glob           bool
}

func newSpeakerMatcher(list []string, prefix bool) *speakerMatcher {
	m := &speakerMatcher{prefix: prefix, cache: map[[2]string]bool{}}
	for _, e := range list {
		scope, pat := splitScope(e)
		pat = strings.ToLower(strings.TrimSpace(pat))
		m.entries = append(m.entries, matchEntry{scope: scope, pattern: pat, glob: strings.ContainsAny(pat, "*?[")})
	}
	return m
}

// match reports whether the speaker name of a source is listed.
func (m *speakerMatcher) match(source, speaker string) bool {
	corpus := strings.ToLower(CorpusOf(source))
	key := [2]string{corpus, speaker}
	if v, ok := m.cache[key]; ok {
		return v
	}
	name := data.FoldSpeakerName(speaker)
	v := false
	for _, e := range m.entries {
		if e.scope != "" && e.scope != corpus {
			continue
		}
		if e.glob {
			v, _ = path.Match(e.pattern, name)
		} else {
			v = name == e.pattern || m.prefix && strings.HasPrefix(name, e.pattern+" ")
		}
		if v {
			break
		}
	}
	m.cache[key] = v
	return v
}
