package roleplay

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/genimport"
)

func TestMatchRoles(t *testing.T) {
	gen := []GenRole{
		{"ChatHaruhi", "Harry"}, {"ChatHaruhi", "Professor McGonagall"}, {"ChatHaruhi", "Sheldon"}, {"ChatHaruhi", "Malfoy"},
		{"RoleGPT", "Sheldon Cooper"}, {"RoleGPT", "Jack"}, {"RoleGPT", "Jack Sparrow"}, {"RoleGPT", "Caesar"},
		{"X", "Hermione Jean Granger"}, {"X", "Zed"}, {"X", "Maria Smith"},
	}
	speakers := map[string]int{
		"Harry": 10, "Harry Potter": 5, "McGonagall": 1, "Professor McGonagall": 20, "Sheldon": 100, "Sheldon Cooper": 50,
		"Jack": 3, "Caesar": 4, "Hermione": 7, "Draco Malfoy": 2, "Lucius Malfoy": 9,
		"Anna Maria Smith": 1, "Clara Maria Smith": 1,
	}
	ms, notes := MatchRoles(gen, speakers, DefaultConfig())
	if len(notes) != 0 {
		t.Errorf("notes %v", notes)
	}
	got := map[string]RoleMatch{}
	for _, m := range ms {
		got[m.Role] = m
	}
	check := func(role, realRole string, speakers []string, method genimport.MatchKind) {
		t.Helper()
		m := got[role]
		if m.RealRole != realRole || !reflect.DeepEqual(m.RealSpeakers, speakers) || m.Method != method || m.DistinctionOnly != (realRole == "") {
			t.Errorf("%s: %+v; want %q %v %q", role, m, realRole, speakers, method)
		}
	}
	check("Harry", "Harry", []string{"Harry", "Harry Potter"}, genimport.MatchExact)
	check("Professor McGonagall", "Professor McGonagall", []string{"McGonagall", "Professor McGonagall"}, genimport.MatchExact)
	// Two models' names for Sheldon meet one pooled real role.
	check("Sheldon", "Sheldon", []string{"Sheldon", "Sheldon Cooper"}, genimport.MatchExact)
	check("Sheldon Cooper", "Sheldon", []string{"Sheldon", "Sheldon Cooper"}, genimport.MatchExact)
	check("Malfoy", "Draco Malfoy", []string{"Draco Malfoy"}, genimport.MatchAlias)
	check("Jack", "Jack", []string{"Jack"}, genimport.MatchExact)
	check("Jack Sparrow", "", nil, genimport.MatchNone)
	check("Caesar", "Caesar", []string{"Caesar"}, genimport.MatchExact)
	check("Hermione Jean Granger", "Hermione", []string{"Hermione"}, genimport.MatchSubset)
	check("Zed", "", nil, genimport.MatchNone)
	check("Maria Smith", "", nil, genimport.MatchNone)
	if c := got["Maria Smith"].Candidates; len(c) != 2 {
		t.Errorf("ambiguous candidates %v", c)
	}
	if m := got["Harry"]; m.RealUtterances != 15 || !reflect.DeepEqual(m.Models, []string{"ChatHaruhi"}) {
		t.Errorf("Harry %+v", m)
	}

	// A role map overrides matching; an empty entry means no real lines.
	rm, err := ReadRoleMap("testdata/rolebench.rolemap")
	if err != nil {
		t.Fatal(err)
	}
	rm["Zed"] = []string{"Nobody"}
	cfg := DefaultConfig()
	cfg.RoleMap = rm
	ms, notes = MatchRoles(gen, speakers, cfg)
	got = map[string]RoleMatch{}
	for _, m := range ms {
		got[m.Role] = m
	}
	check("Caesar", "", nil, genimport.MatchRoleMap)
	check("Sheldon Cooper", "Sheldon", []string{"Sheldon", "Sheldon Cooper"}, genimport.MatchRoleMap)
	if len(notes) != 1 || !strings.Contains(notes[0], "Nobody") {
		t.Errorf("notes %v", notes)
	}
}

func TestReadRoleMap(t *testing.T) {
	m, err := ReadRoleMap("testdata/rolebench.rolemap")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"Caesar": nil, "Coriolanus": {"Coriolanus", "Marcius"}, "Sheldon Cooper": {"Sheldon"}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got %v", m)
	}
	if _, err := ReadRoleMap("testdata/bad.rolemap"); err == nil || !strings.Contains(err.Error(), "bad.rolemap:2") {
		t.Errorf("bad file: %v", err)
	}
	if _, err := ReadRoleMap("testdata/missing.rolemap"); err == nil {
		t.Error("missing file accepted")
	}
}

func TestCheckRoleMap(t *testing.T) {
	gen := []string{"Sheldon Cooper", "Caesar"}
	real := []string{"Sheldon", "Penny"}
	if err := CheckRoleMap(map[string][]string{"sheldon cooper": {"SHELDON"}, "Caesar": nil}, gen, real); err != nil {
		t.Errorf("valid map refused: %v", err)
	}
	err := CheckRoleMap(map[string][]string{"Sheldon Coper": {"Sheldon"}}, gen, real)
	if err == nil || !strings.Contains(err.Error(), `"Sheldon Coper"`) || !strings.Contains(err.Error(), "no generated role") || !strings.Contains(err.Error(), "Caesar, Sheldon Cooper") {
		t.Errorf("unknown role: %v", err)
	}
	err = CheckRoleMap(map[string][]string{"Sheldon Cooper": {"Sheldon", "Leonardd"}}, gen, real)
	if err == nil || !strings.Contains(err.Error(), `"Leonardd"`) || !strings.Contains(err.Error(), "no real speaker") || !strings.Contains(err.Error(), "Penny, Sheldon") {
		t.Errorf("unknown speaker: %v", err)
	}
	// Score refuses such a map before computing anything.
	real2, gen2 := synthetic(1)
	cfg := DefaultConfig()
	cfg.RoleMap = map[string][]string{"Alice": {"Alicia"}}
	if _, err := Score(context.Background(), bowEncoder{}, real2, gen2, cfg, nil); err == nil || !strings.Contains(err.Error(), `"Alicia"`) {
		t.Errorf("Score with a bad role map: %v", err)
	}
}
