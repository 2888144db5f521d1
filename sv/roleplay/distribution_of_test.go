package roleplay

import "testing"

func TestDistributionOf(t *testing.T) {
	r := &Report{Distributions: []Distribution{{Model: "A", Kind: RealGenerated, NPositive: 1}, {Model: "A", Kind: GeneratedGenerated, NPositive: 2}}}
	if d, ok := r.DistributionOf("A", GeneratedGenerated); !ok || d.NPositive != 2 {
		t.Errorf("%+v %v", d, ok)
	}
	if _, ok := r.DistributionOf("B", RealGenerated); ok {
		t.Error("B found")
	}
}
