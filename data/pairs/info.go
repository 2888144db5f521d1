package pairs

// PairFormat and PairFormatVersion identify a pair directory's manifest.
const (
	PairFormat        = "roleprint-pairs"
	PairFormatVersion = 1
)

// PairInfo describes how a PairCorpus was built: the resolved config, what
// the filters kept, the speaker split and each split's counts. BuildPairs
// records it, WritePairDir stores it in manifest.json and ReadPairDir reads
// it back; PairCorpusInfo returns it.
type PairInfo struct {
	// Format is PairFormat; Version is PairFormatVersion.
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Variant and Seed repeat Config's, so a reader need not parse Config.
	Variant PairVariant `json:"variant"`
	Seed    int64       `json:"seed"`
	// Config is the resolved configuration; nil when the corpus was not
	// made by BuildPairs.
	Config *PairConfig `json:"config,omitempty"`
	// Input says what the filters kept and dropped.
	Input *InputCounts `json:"input,omitempty"`
	// Datasets lists each dataset's unseen and dev speakers.
	Datasets []DatasetSplit `json:"datasets,omitempty"`
	// SpeakersSeen, SpeakersUnseen and SpeakersDev count the speakers in
	// each role.
	SpeakersSeen   int `json:"speakers_seen"`
	SpeakersUnseen int `json:"speakers_unseen"`
	SpeakersDev    int `json:"speakers_dev"`
	// HeldConversations had an unseen or dev speaker; the seen speakers'
	// sets there (ParkedSets) are not used. TrainSets are the seen speakers'
	// sets open to training; HeldOutSets their Seen-Unseen hold-outs.
	HeldConversations int `json:"held_conversations"`
	TrainSets         int `json:"train_sets"`
	HeldOutSets       int `json:"held_out_sets"`
	ParkedSets        int `json:"parked_sets"`
	// Splits has one entry per split: train, dev, then the nine tests in
	// exposure-major order.
	Splits []SplitInfo `json:"splits"`
	// Notes explains each empty split (with AllowEmptySplits) and other
	// things a reader should know.
	Notes []string `json:"notes,omitempty"`
}

// SplitInfo counts one split's pairs and how its sampling went.
type SplitInfo struct {
	// Name is "train", "dev" or a TestKey's String().
	Name     string   `json:"name"`
	Exposure Exposure `json:"exposure,omitempty"`
	Level    Level    `json:"level,omitempty"`
	Pairs    int      `json:"pairs"`
	// Positives and Negatives are equal except in VariantCode's train.
	Positives int `json:"positives"`
	Negatives int `json:"negatives"`
	// Anchors is how many anchor draws were made; NoPositive and
	// NoNegative how many found no free partner (the anchor was skipped).
	Anchors    int `json:"anchors"`
	NoPositive int `json:"no_positive"`
	NoNegative int `json:"no_negative"`
	// Capped is true when the split stopped at its cap.
	Capped bool `json:"capped"`
	// BaseAnySource is true when Base negatives were to cross sources
	// (PairConfig.BaseNegatives) but the split's pool has one source only,
	// so they were drawn from any source.
	BaseAnySource bool `json:"base_any_source,omitempty"`
}

// PairCorpusInfo returns how c was built, or nil for a corpus that
// BuildPairs or ReadPairDir did not make. It is c.Info.
func PairCorpusInfo(c *PairCorpus) *PairInfo {
	if c == nil {
		return nil
	}
	return c.Info
}

func setPairCorpusInfo(c *PairCorpus, info *PairInfo) { c.Info = info }
