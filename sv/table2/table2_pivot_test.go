package table2

import (
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
)

func TestLevelAUCsPivotsOneExposure(t *testing.T) {
	rows := []Row{
		{Encoder: "a", Exposure: string(pairs.UnseenUnseen), Level: string(pairs.Base), AUCMean: 0.9},
		{Encoder: "a", Exposure: string(pairs.UnseenUnseen), Level: string(pairs.Harder), AUCMean: 0.6},
		{Encoder: "b", Exposure: string(pairs.SeenSeen), Level: string(pairs.Base), AUCMean: 0.1},
		{Encoder: "b", Exposure: string(pairs.UnseenUnseen), Level: string(pairs.Hard), AUCMean: 0.7},
		{Encoder: "a", Exposure: string(pairs.UnseenUnseen), Level: string(pairs.Hard), AUCMean: 0.8},
	}
	got := LevelAUCs(rows, pairs.UnseenUnseen)
	if len(got) != 2 || got[0].Encoder != "a" || got[1].Encoder != "b" {
		t.Fatalf("order %+v", got)
	}
	if a := got[0]; a.Base != 0.9 || a.Hard != 0.8 || a.Harder != 0.6 || a.Drop < 0.3-1e-12 || a.Drop > 0.3+1e-12 {
		t.Errorf("a: %+v", a)
	}
	if b := got[1]; b.Base != 0 || b.Hard != 0.7 {
		t.Errorf("b (its Seen-Seen row must not count): %+v", b)
	}
}
