package baseline

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv"
)

// TestNgramMetricSettingsReachOptions sets every key of "ngram-metric" to
// a non-default value and checks the field it names, including topic_mask
// (the masked channel's K, not tfidf's mask of the char channel) and the
// channels center_by=corpus, word_weight and global_weight build.
func TestNgramMetricSettingsReachOptions(t *testing.T) {
	kv := map[string]string{
		"ngram_min": "1", "ngram_max": "5", "max_features": "123", "min_df": "3", "lowercase": "true",
		"sublinear_tf": "false", "center": "false", "topic_mask": "50", "masked_weight": "0.5", "rank": "8",
		"rank_weight": "2", "epochs": "4", "patience": "3", "batch_size": "64", "lr": "0.1", "margin": "0.7",
		"hard_weight": "3", "dev_by_level": "true", "decay": "0.01", "threads": "2", "weights": "/x/w.json",
		"center_by": "corpus", "group_weight": "2", "word_weight": "0.5", "global_weight": "0.25",
		"group_temperature": "5", "cohort": "7", "cohort_group_weight": "2.5", "adapt_keep": "0.5",
		"weight_by": "descriptor", "descriptor_buckets": "5", "descriptor_fit": "corpus", "balance_corpora": "true",
		"cohort_top": "20", "adapt_score": "cosine", "adapt_pool": "doc", "adapt_channels": "char",
	}
	got, err := NgramMetricFromSettings(sv.EncoderOptions{Settings: kv})
	if err != nil {
		t.Fatal(err)
	}
	want := NgramMetricOptions{
		CharNgramOptions: CharNgramOptions{MinN: 1, MaxN: 5, MaxFeatures: 123, MinDF: 3, Lowercase: true},
		TopicMask:        50, MaskedWeight: 0.5, Rank: 8, RankWeight: 2, Epochs: 4, Patience: 3, BatchSize: 64,
		LearningRate: 0.1, Margin: 0.7, HardWeight: 3, DevByLevel: true, Decay: 0.01, Threads: 2, Weights: "/x/w.json",
		CenterBy: "corpus", GroupWeight: 2, WordWeight: 0.5, GlobalWeight: 0.25, GroupTemperature: 5,
		Cohort: 7, CohortGroupWeight: 2.5, AdaptKeep: 0.5, WeightBy: "descriptor", DescriptorBuckets: 5,
		DescriptorFit: "corpus", BalanceCorpora: true, CohortTop: 20, AdaptScore: "cosine", AdaptPool: "doc",
		AdaptChannels: "char",
	}
	if got != want {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if keys := options.Names(got); !slices.Equal(keys, slices.Sorted(maps.Keys(kv))) {
		t.Errorf("keys %v, want exactly %v", keys, slices.Sorted(maps.Keys(kv)))
	}
	d, err := NgramMetricFromSettings(sv.EncoderOptions{})
	if err != nil || d != DefaultNgramMetricOptions() {
		t.Errorf("no settings: %+v, %v; want the defaults", d, err)
	}
	// rank and center=false do not go with center_by=corpus: refused.
	if _, err := NewNgramMetric(got, 1, "", nil); err == nil || !strings.Contains(err.Error(), "center_by") {
		t.Errorf("rank 8 with center_by=corpus: error %v, want one naming center_by", err)
	}
	// The masked channel gets topic_mask, the char channel none; the word
	// and global channels follow, with their weights.
	build := got
	build.Rank, build.Center = 0, true
	m, err := NewNgramMetric(build, 1, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	ch := metricOf(m).chans
	if len(ch) != 4 || ch[0].tf.opts.TopicMask != 0 || ch[1].tf.opts.TopicMask != 50 || ch[1].tf.opts.MaxFeatures != 123 || ch[0].tf.opts.Pool != "mean" {
		t.Fatalf("%d channels; tfidf options: %+v / %+v", len(ch), ch[0].tf.opts, ch[1].tf.opts)
	}
	var names []string
	for _, c := range ch {
		names = append(names, fmt.Sprintf("%s×%g words=%v global=%v", c.name, c.beta, c.tf.words, c.global))
	}
	want4 := []string{"char×1 words=false global=false", "masked×0.5 words=false global=false", "word×0.5 words=true global=false", "global×0.25 words=false global=true"}
	if !slices.Equal(names, want4) {
		t.Errorf("channels %q, want %q", names, want4)
	}
	if gb := metricOf(m).groupBeta(); gb != 2 || metricOf(m).opts.Cohort != 7 {
		t.Errorf("group channel weight %g, cohort %d; want 2 and 7", gb, metricOf(m).opts.Cohort)
	}
}

// TestNgramMetricSettingsRejectUnknownKeys checks that a key ngram-metric
// does not have (tfidf's "pool" among them) and a malformed value are
// errors naming the key, through the registry as `--set` reaches it.
func TestNgramMetricSettingsRejectUnknownKeys(t *testing.T) {
	for _, name := range []string{NameNgramMetric, NameNgramMetric + sv.FineTunedSuffix} {
		for _, key := range []string{"epoch", "pool"} {
			_, err := sv.NewEncoder(name, sv.EncoderOptions{Settings: map[string]string{key: "1"}})
			if err == nil || !strings.Contains(err.Error(), `"`+key+`"`) || !strings.Contains(err.Error(), "epochs") || !strings.Contains(err.Error(), "masked_weight") {
				t.Errorf("%s with %s=1: error %v, want one naming %q and the valid keys", name, key, err, key)
			}
		}
	}
	if _, err := NgramMetricFromSettings(sv.EncoderOptions{Settings: map[string]string{"epochs": "many"}}); err == nil || !strings.Contains(err.Error(), "epochs") {
		t.Errorf("epochs=many: error %v, want one naming epochs", err)
	}
	keys, err := sv.OptionKeys(NameNgramMetric + sv.FineTunedSuffix)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if k.Doc == "" || k.Default == "" && k.Name != "weights" {
			t.Errorf("key %s: doc %q, default %q; want both (go generate ./sv/baseline)", k.Name, k.Doc, k.Default)
		}
	}
}
