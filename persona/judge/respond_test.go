package judge

import (
	"context"
	"reflect"
	"testing"
)

type echoAgent struct{}

func (echoAgent) Name() string { return "echo" }
func (echoAgent) Respond(_ context.Context, it AblationItem, turns []Turn) (string, error) {
	return it.Role + ":" + turns[len(turns)-1].Text, nil
}

func TestRespondAllAndTableRow(t *testing.T) {
	items := []AblationItem{{ID: "1", Role: "Sheldon", Reference: "ref", History: []Turn{{Text: "a"}, {Text: "b"}, {Text: "c"}}}}
	insts, err := RespondAll(context.Background(), echoAgent{}, items, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(insts) != 1 || insts[0].Response != "Sheldon:c" || len(insts[0].Context) != 2 || insts[0].Context[0].Text != "b" {
		t.Errorf("instances %+v", insts)
	}
	resp, refs := ResponsesAndReferences(insts)
	if !reflect.DeepEqual(resp, []string{"Sheldon:c"}) || !reflect.DeepEqual(refs, []string{"ref"}) {
		t.Errorf("%v %v", resp, refs)
	}
	r := &VRSystemResult{System: "s", Judge: "j", N: 3, Scores: map[string]float64{"b": 2, "a": 1}, Overall: 1.5}
	cols, row := r.TableRow()
	if !reflect.DeepEqual(cols, []string{"system", "judge", "n", "a", "b", "overall"}) || !reflect.DeepEqual(row, []any{"s", "j", 3, 1.0, 2.0, 1.5}) {
		t.Errorf("%v %v", cols, row)
	}
}
