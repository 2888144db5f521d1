package roleplay

import (
	"fmt"

	"github.com/roleprint/roleprint/data/genimport"
)

// Grouping says how a role's utterances are cut into utterance sets, the
// unit every similarity compares.
type Grouping string

// The groupings. Real and generated utterances are always grouped the same
// way, because the cosine of two mean vectors grows with the sets' sizes:
// only sets of like size give comparable scores.
const (
	// GroupPaper (the default) follows Eq. 2 and Eq. 3 literally: U_m^r
	// is one set of all of the model's utterances for role r (and, for the
	// Real row, one set of all of r's held-out utterances), and the real
	// reference sets G_i^r are one per real conversation i of r, however
	// short (Config.SetSize and MinSetSize do not apply). Simulation is
	// then the mean over roles of the mean over i of cos(U_m^r, G_i^r);
	// Distinction the mean over roles of the mean over the other roles r′
	// of 1 − cos(U_m^r, U_m^r′), leaving out an r′ that shares a
	// conversation with r (its counterpart in a self-play conversation).
	// With one set per role the generated–generated distribution has no
	// same-role pair, and the bootstrap resamples roles and reference
	// conversations only.
	GroupPaper Grouping = "paper"
	// GroupChunks cuts a role's utterances, taken
	// conversation by conversation in corpus order, into sets of
	// Config.SetSize. A set may span several short conversations (a
	// RoleBench answer is a conversation of one line) and records them
	// all; a remainder shorter than Config.MinSetSize joins the previous
	// set.
	GroupChunks Grouping = "chunks"
	// GroupConversation makes one set per conversation, the paper's unit
	// for real data; sets with fewer than Config.MinSetSize utterances are
	// left out.
	GroupConversation Grouping = "conversation"
	// GroupRole makes one set of all of a role's utterances (the literal
	// reading of the paper's U_m^r). Real sets are still per conversation
	// chunk, as GroupChunks.
	GroupRole Grouping = "role"
)

// RankAmong says which candidates a Simulation Rank ranks the true role
// among.
type RankAmong string

// The two readings of the paper's Simulation Rank (Tables 6 and 7).
const (
	// RankAmongReal (the default) compares a model's sets for role r with
	// the reference sets of every real role and gives the position of r's
	// own real role among them: speaker identification of the agent's
	// output ("which real character does the agent's Sheldon sound
	// like?"), the reading of Table 6's caption, "top-5 most similar roles
	// when simulating Sheldon Cooper". The candidates are the same for
	// every row (every real role with reference sets), so ranks compare
	// across rows, and a model that played one role still gets a rank.
	RankAmongReal RankAmong = "real"
	// RankAmongAgent orders the model's own roles by the similarity of
	// their sets to r's real reference sets and gives the position of the
	// model's role for r: "which of the agent's characters sounds most
	// like the real Sheldon?". The candidates are the model's roles (95
	// for RoleBench's RoleGPT); a model with one role always ranks 1.
	RankAmongAgent RankAmong = "agent"
)

// Describe says in one sentence what a rank row lists, for captions.
func (a RankAmong) Describe() string {
	if a == RankAmongAgent {
		return "the model's roles ordered by the similarity of their sets to the role's real reference sets; rank of the model's own role for it"
	}
	return "the real roles ordered by the similarity of their reference sets to the model's sets for the role; rank of the role's own real role"
}

// Config holds every setting of a scoring run. DefaultConfig gives the
// defaults; a zero SetSize, MinSetSize, Confidence, TopK, Bins or
// MaxDistributionPairs means its default, while HeldOut and Bootstrap are
// taken as given (0 turns the Real row or the confidence intervals off).
type Config struct {
	// Grouping cuts utterances into sets; default GroupPaper (Eq. 2 and 3
	// literally). GroupChunks was the default before; it gives every role
	// several sets of like size, so the bootstrap intervals resample sets.
	Grouping Grouping `json:"grouping"`
	// SetSize is the number of utterances per set for GroupChunks (and for
	// real sets under GroupRole); default 8.
	SetSize int `json:"set_size"`
	// MinSetSize is the smallest set kept (GroupConversation) or the
	// smallest remainder kept apart (GroupChunks); default SetSize/2.
	MinSetSize int `json:"min_set_size"`
	// HeldOut is the fraction of each real role's utterances, taken in
	// whole conversations, held out to play the "Real" reference row; the
	// agents are compared with the remaining real sets only, so every row
	// faces the same references. Default 0.2; 0 disables the Real row.
	HeldOut float64 `json:"held_out"`
	// RealModel is the name of the reference row; default "Real".
	RealModel string `json:"real_model"`
	// Bootstrap is the number of bootstrap replicates behind each
	// confidence interval; default 1000; 0 disables the intervals.
	Bootstrap int `json:"bootstrap"`
	// Confidence is the coverage of the percentile intervals; default 0.95.
	Confidence float64 `json:"confidence"`
	// Seed seeds the held-out split, the bootstrap and the sampling of
	// distribution pairs; default 1.
	Seed int64 `json:"seed"`
	// TopK is how many most similar roles a rank row lists; default 5.
	TopK int `json:"top_k"`
	// RankAmong picks the Simulation Rank's candidates; default
	// RankAmongReal (see there).
	RankAmong RankAmong `json:"rank_among"`
	// AllRealSpeakers makes every real speaker a real role, also those no
	// agent plays (matched by no generated role): they join the Real row
	// and, with RankAmongReal, the Simulation Rank's candidates, so that a
	// model that played one role is still ranked among every speaker of
	// the real corpus. Default false: real roles are the real speakers
	// some agent plays (the paper's Table 6 ranks among the 95 roles its
	// models all played).
	AllRealSpeakers bool `json:"all_real_speakers"`
	// FitRealOnly fits a Fitter encoder (TF-IDF, standardised style
	// features) on the real texts only; default false: on every text
	// scored, real and generated (unsupervised statistics such as IDF).
	FitRealOnly bool `json:"fit_real_only"`
	// FitTexts, when set, are the texts a Fitter encoder is fitted on
	// instead of the texts scored, as given (not de-duplicated): e.g. a
	// verifier bundle's training texts (OUT/verifier/fit.txt), so that an
	// untuned baseline has seen what the verifier saw and nothing of the
	// corpus it scores (inductive), where the default fit on the scored
	// texts is transductive. FitTexts cannot be combined with FitRealOnly
	// or Adapt.
	FitTexts []string `json:"-"`
	// FitOn says where FitTexts came from (file names), for the report.
	FitOn string `json:"fit_on,omitempty"`
	// Adapt re-centres an sv.Adapter encoder (a verifier bundle's
	// ngram-metric parts) on the texts a Fitter would be fitted on
	// (FitRealOnly decides which) before embedding: unsupervised domain
	// adaptation to a corpus the verifier was not trained on. Default
	// false: the verifier centres as it was trained.
	Adapt bool `json:"adapt"`
	// KeepRealDuplicates keeps every copy of a real line that occurs more
	// than once in a real role's pooled lines. Default false: a line of
	// four words or more is kept once (by genimport.CopyKey), because the
	// same transcript often reaches a role through two corpora (ChatHaruhi's
	// Sheldon texts are excerpts of the TBBT transcripts), and a held-out
	// line repeated among the reference sets would flatter the Real row.
	KeepRealDuplicates bool `json:"keep_real_duplicates"`
	// Bins is the number of histogram bins of a similarity distribution;
	// default 40.
	Bins int `json:"bins"`
	// MaxDistributionPairs bounds the similarities kept per side of a
	// distribution (a seeded uniform sample beyond it); default 20000. The
	// AUC and overlap use every pair whatever this is.
	MaxDistributionPairs int `json:"max_distribution_pairs"`
	// RoleMap maps a generated role name to the real speakers that are
	// that role, overriding automatic matching for the roles it lists; an
	// empty list means "no real lines". Keys and speakers are compared
	// with genimport.NormalizeName. See ReadRoleMap.
	RoleMap map[string][]string `json:"role_map,omitempty"`
	// Names relates generated role names to real speaker names; nil means
	// genimport.DefaultNameMatcher().
	Names *genimport.NameMatcher `json:"-"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Grouping:             GroupPaper,
		SetSize:              8,
		MinSetSize:           4,
		HeldOut:              0.2,
		RealModel:            "Real",
		Bootstrap:            1000,
		Confidence:           0.95,
		Seed:                 1,
		TopK:                 5,
		RankAmong:            RankAmongReal,
		Bins:                 40,
		MaxDistributionPairs: 20000,
	}
}

// resolve fills defaults for zero fields and checks the rest.
func (c Config) resolve() (Config, error) {
	d := DefaultConfig()
	if c.Grouping == "" {
		c.Grouping = d.Grouping
	}
	switch c.Grouping {
	case GroupPaper, GroupChunks, GroupConversation, GroupRole:
	default:
		return c, fmt.Errorf("roleplay: unknown grouping %q (want %s, %s, %s or %s)", c.Grouping, GroupPaper, GroupChunks, GroupConversation, GroupRole)
	}
	if c.RankAmong == "" {
		c.RankAmong = d.RankAmong
	}
	if c.RankAmong != RankAmongReal && c.RankAmong != RankAmongAgent {
		return c, fmt.Errorf("roleplay: unknown rank candidates %q (want %s or %s)", c.RankAmong, RankAmongReal, RankAmongAgent)
	}
	if c.SetSize == 0 {
		c.SetSize = d.SetSize
	}
	if c.MinSetSize == 0 {
		c.MinSetSize = max(1, c.SetSize/2)
	}
	if c.RealModel == "" {
		c.RealModel = d.RealModel
	}
	if c.Confidence == 0 {
		c.Confidence = d.Confidence
	}
	if c.TopK == 0 {
		c.TopK = d.TopK
	}
	if c.Bins == 0 {
		c.Bins = d.Bins
	}
	if c.MaxDistributionPairs == 0 {
		c.MaxDistributionPairs = d.MaxDistributionPairs
	}
	switch {
	case c.SetSize < 1:
		return c, fmt.Errorf("roleplay: set size %d: want at least 1", c.SetSize)
	case c.MinSetSize < 1:
		return c, fmt.Errorf("roleplay: minimum set size %d: want at least 1", c.MinSetSize)
	case c.HeldOut < 0 || c.HeldOut >= 1:
		return c, fmt.Errorf("roleplay: held-out fraction %g: want 0 ≤ f < 1", c.HeldOut)
	case c.Bootstrap < 0:
		return c, fmt.Errorf("roleplay: bootstrap replicates %d: want ≥ 0", c.Bootstrap)
	case c.Confidence <= 0 || c.Confidence >= 1:
		return c, fmt.Errorf("roleplay: confidence %g: want 0 < c < 1", c.Confidence)
	case c.TopK < 0 || c.Bins < 1 || c.MaxDistributionPairs < 1:
		return c, fmt.Errorf("roleplay: top-k %d, bins %d, max distribution pairs %d: want top-k ≥ 0 and the others ≥ 1", c.TopK, c.Bins, c.MaxDistributionPairs)
	}
	if len(c.FitTexts) > 0 && (c.FitRealOnly || c.Adapt) {
		return c, fmt.Errorf("roleplay: %d fit texts %s replace the scored texts a Fitter is fitted on: they cannot be combined with fit-real-only or adapt", len(c.FitTexts), c.FitOn)
	}
	if c.Names == nil {
		c.Names = genimport.DefaultNameMatcher()
	}
	return c, nil
}
