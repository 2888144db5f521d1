package judge

import (
	"reflect"
	"testing"
)

func TestAblationTableSeries(t *testing.T) {
	tab := &AblationTable{Ks: []int{4, 8}, Overall: []float64{2, 3},
		Scores: []map[string]float64{{"b": 1, "a": 5}, {"b": 2, "a": 6}}}
	names, values := tab.Series()
	if !reflect.DeepEqual(names, []string{"a", "b", "overall"}) {
		t.Errorf("names %v", names)
	}
	if !reflect.DeepEqual(values, [][]float64{{5, 6}, {1, 2}, {2, 3}}) {
		t.Errorf("values %v", values)
	}
	if got := tab.KLabels(); !reflect.DeepEqual(got, []string{"k = 4", "k = 8"}) {
		t.Errorf("labels %v", got)
	}
	if got := tab.KValues(); !reflect.DeepEqual(got, []float64{4, 8}) {
		t.Errorf("values %v", got)
	}
}
