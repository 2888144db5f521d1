package roleplay

// DistributionOf returns the report's distribution of row model and kind
// (RealGenerated or GeneratedGenerated), and whether it has one.
func (r *Report) DistributionOf(model, kind string) (Distribution, bool) {
	for _, d := range r.Distributions {
		if d.Model == model && d.Kind == kind {
			return d, true
		}
	}
	return Distribution{}, false
}
