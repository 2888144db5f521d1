package distill

import (
	"reflect"
	"testing"
)

func TestResultRows(t *testing.T) {
	r := &Result{
		Styles:   []Style{{Character: "Sheldon", Phrases: []string{"a b", "c d"}, Catchphrases: []string{"Bazinga!"}, Openers: []string{"Well", "Oh"}}},
		Personas: []Persona{{Character: "Penny", Prompt: "You are Penny."}, {Character: "Sheldon", Prompt: "You are Sheldon."}},
	}
	if got := r.StyleRows(); !reflect.DeepEqual(got, []StyleRow{{"Sheldon", "a b; c d", "Bazinga!", "Well, Oh"}}) {
		t.Errorf("StyleRows %+v", got)
	}
	if p, ok := r.PersonaOf("Sheldon"); !ok || p.Prompt != "You are Sheldon." {
		t.Errorf("PersonaOf %+v %v", p, ok)
	}
	if _, ok := r.PersonaOf("Amy"); ok {
		t.Error("Amy found")
	}
	if got := r.Prompts(); len(got) != 2 || got["Penny"] != "You are Penny." {
		t.Errorf("Prompts %v", got)
	}
}
