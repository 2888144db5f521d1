package genimport

import (
	"reflect"
	"testing"

	"github.com/roleprint/roleprint/data"
)

func TestSplitAndGroupByRole(t *testing.T) {
	utts := []data.Utterance{
		{Speaker: "Professor McGonagall", Text: "real 1"},
		{Speaker: "Harry", Text: "real 2"},
		{Role: "McGonagall", AgentModel: "gpt", Text: "gen 1"},
		{Role: "McGonagall", AgentModel: "RoleGPT", Text: "gen 2"},
		{Speaker: "McGonagall", Text: "real 3"},
	}
	real, gen := SplitGenerated(utts)
	if len(real) != 3 || len(gen) != 2 || real[1].Text != "real 2" {
		t.Errorf("split: %d real, %d generated", len(real), len(gen))
	}
	if got := ByAgentModel(utts, "RoleGPT"); len(got) != 1 || got[0].Text != "gen 2" {
		t.Errorf("ByAgentModel: %+v", got)
	}
	g, r := TextsByRole(utts, DefaultNameMatcher())
	if !reflect.DeepEqual(g, map[string][]string{"McGonagall": {"gen 1", "gen 2"}}) {
		t.Errorf("generated %v", g)
	}
	if !reflect.DeepEqual(r, map[string][]string{"McGonagall": {"real 1", "real 3"}}) {
		t.Errorf("real %v (Harry has no generated role)", r)
	}
}
