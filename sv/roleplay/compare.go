package roleplay

import (
	"fmt"

	"github.com/roleprint/roleprint/stats"
)

// SeparationComparison is one distribution's separation (its AUC: same
// role against different roles) in two reports scored on the same sets
// by two encoders, A and B, and their paired difference.
type SeparationComparison struct {
	// Model and Kind name the distribution (Distribution.Model, Kind).
	Model string `json:"model"`
	Kind  string `json:"kind"`
	// A and B are the two reports' encoders; AUC and OtherAUC their
	// separations.
	A        string      `json:"a"`
	B        string      `json:"b"`
	AUC      stats.Float `json:"auc"`
	OtherAUC stats.Float `json:"other_auc"`
	// AUCDiff is AUC − OtherAUC, AUCDiffCI the percentile interval
	// (Config.Confidence) of the replicate-wise differences of the two
	// reports' role bootstraps (Distribution.AUCReplicates: the same roles
	// drawn for both), so what the roles share cancels out of it.
	AUCDiff   stats.Float    `json:"auc_diff"`
	AUCDiffCI stats.Interval `json:"auc_diff_ci"`
	// ShareNotAbove is the share of paired replicates in which A does not
	// separate better than B (difference ≤ 0): a one-sided bootstrap
	// p-value for "A separates better".
	ShareNotAbove stats.Float `json:"share_not_above"`
	// Replicates counts the paired replicates (those defined in both).
	Replicates int `json:"replicates"`
}

// CompareSeparation pairs every distribution of a with the one of b of the
// same model and kind and compares their separations (SeparationComparison).
// The two reports must have been scored by Score in this process on the
// same data with the same set construction, role matching, held-out
// split and bootstrap (Config: Grouping, SetSize, MinSetSize, HeldOut,
// RealModel, Bootstrap, Confidence, Seed, AllRealSpeakers,
// KeepRealDuplicates, RoleMap, and the same Names; encoder-side settings
// such as FitRealOnly, FitTexts and Adapt may differ), so that their
// distributions hold the same pairs of the same roles in the same order
// (checked by a fingerprint); otherwise it is an error, since unpaired
// replicates would give a meaningless interval. A distribution whose
// replicates are missing on either side (a NaN similarity, fewer than two
// roles, no bootstrap) gets its difference without an interval
// (Replicates 0).
func CompareSeparation(a, b *Report) ([]SeparationComparison, error) {
	if err := sameSets(a.Config, b.Config); err != nil {
		return nil, fmt.Errorf("roleplay: compare %s with %s: %w", a.Encoder, b.Encoder, err)
	}
	type key struct{ model, kind string }
	other := map[key]*Distribution{}
	for i := range b.Distributions {
		d := &b.Distributions[i]
		other[key{d.Model, d.Kind}] = d
	}
	var out []SeparationComparison
	for i := range a.Distributions {
		da := &a.Distributions[i]
		db, ok := other[key{da.Model, da.Kind}]
		if !ok {
			return nil, fmt.Errorf("roleplay: compare %s with %s: %s has no %s distribution for %s", a.Encoder, b.Encoder, b.Encoder, da.Kind, da.Model)
		}
		if da.NPositive != db.NPositive || da.NNegative != db.NNegative || da.pairsKey != db.pairsKey {
			return nil, fmt.Errorf("roleplay: compare %s with %s: %s %s: %d/%d against %d/%d positive/negative pairs: not the same sets",
				a.Encoder, b.Encoder, da.Model, da.Kind, da.NPositive, da.NNegative, db.NPositive, db.NNegative)
		}
		c := SeparationComparison{Model: da.Model, Kind: da.Kind, A: a.Encoder, B: b.Encoder, AUC: da.AUC, OtherAUC: db.AUC,
			AUCDiff: stats.Float(float64(da.AUC) - float64(db.AUC)), AUCDiffCI: stats.NoInterval(), ShareNotAbove: stats.NaN()}
		if da.AUCReplicates != nil && db.AUCReplicates != nil {
			diffs := make([]float64, len(da.AUCReplicates))
			for k, x := range da.AUCReplicates {
				diffs[k] = x - db.AUCReplicates[k]
			}
			c.AUCDiffCI, c.ShareNotAbove, c.Replicates = stats.PairedDifference(diffs, a.Config.Confidence)
		}
		out = append(out, c)
	}
	return out, nil
}

// sameSets reports how two resolved configurations differ in what makes
// their sets, pairs and bootstrap draws.
func sameSets(a, b Config) error {
	type sets struct {
		Grouping                            Grouping
		SetSize, MinSetSize, Bootstrap      int
		HeldOut, Confidence                 float64
		RealModel                           string
		Seed                                int64
		AllRealSpeakers, KeepRealDuplicates bool
	}
	sa := sets{a.Grouping, a.SetSize, a.MinSetSize, a.Bootstrap, a.HeldOut, a.Confidence, a.RealModel, a.Seed, a.AllRealSpeakers, a.KeepRealDuplicates}
	sb := sets{b.Grouping, b.SetSize, b.MinSetSize, b.Bootstrap, b.HeldOut, b.Confidence, b.RealModel, b.Seed, b.AllRealSpeakers, b.KeepRealDuplicates}
	if sa != sb {
		return fmt.Errorf("the reports were scored with other sets or draws (%+v against %+v)", sa, sb)
	}
	if fmt.Sprint(a.RoleMap) != fmt.Sprint(b.RoleMap) {
		return fmt.Errorf("the reports were scored with other role maps")
	}
	return nil
}
