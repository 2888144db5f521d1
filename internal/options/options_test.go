package options

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

type inner struct {
	// Steps caps the steps.
	Steps int `opt:"max_steps"`
}

type kind string

type sample struct {
	// LR is the learning rate.
	LR      float64       `opt:"lr"`
	Center  bool          `json:"center"`
	Name    string        `json:"name,omitempty"`
	Kind    kind          `opt:"kind"`
	Wait    time.Duration `opt:"wait"`
	Parts   []string      `opt:"parts"`
	Sizes   []int         `opt:"sizes"`
	Hidden  int           `opt:"-"`
	NoTag   int
	Inner   inner             `opt:",squash"`
	Logf    func(string)      `json:"-"`
	Extra   map[string]string `json:"extra"`
	private int
}

func TestApplySetsEveryKind(t *testing.T) {
	s := sample{LR: 1e-3, Center: true}
	err := ApplyString(&s, "lr=2e-5;center=false;name=x;kind=doc;wait=90s;parts=a|b;sizes=1|2|3;max_steps=150")
	if err != nil {
		t.Fatal(err)
	}
	want := sample{LR: 2e-5, Center: false, Name: "x", Kind: "doc", Wait: 90 * time.Second,
		Parts: []string{"a", "b"}, Sizes: []int{1, 2, 3}, Inner: inner{Steps: 150}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got %+v, want %+v", s, want)
	}
}

func TestApplyUnknownKeyListsValidOnes(t *testing.T) {
	s := sample{}
	err := Apply(&s, map[string]string{"no_such": "1"})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, w := range []string{`"no_such"`, "lr", "max_steps", "center", "parts"} {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not name %s", msg, w)
		}
	}
	for _, hidden := range []string{"Hidden", "NoTag", "extra", "logf", "private"} {
		if strings.Contains(msg, hidden) {
			t.Errorf("error %q lists the hidden field %s", msg, hidden)
		}
	}
}

func TestApplyBadValueNamesKeyAndType(t *testing.T) {
	for _, c := range []struct{ kv, want string }{
		{"lr=fast", "expected a number"},
		{"max_steps=1.5", "expected an integer"},
		{"center=maybe", "expected true or false"},
		{"wait=soon", "expected a duration"},
		{"sizes=1|x", "expected a list of int"},
	} {
		s := sample{LR: 7, Inner: inner{Steps: 3}}
		err := ApplyString(&s, c.kv)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), strings.Split(c.kv, "=")[0]) {
			t.Errorf("%s: error %v, want one naming the key and %q", c.kv, err, c.want)
		}
		if s.LR != 7 || s.Inner.Steps != 3 {
			t.Errorf("%s: a failed value changed the struct: %+v", c.kv, s)
		}
	}
}

func TestApplyKnownReturnsOthers(t *testing.T) {
	s := sample{}
	unknown, err := ApplyKnown(&s, map[string]string{"lr": "0.5", "ngram_max": "4", "a": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if s.LR != 0.5 || !reflect.DeepEqual(unknown, []string{"a", "ngram_max"}) {
		t.Errorf("lr %g, unknown %v", s.LR, unknown)
	}
}

func TestKeysReportTypesDefaultsAndDocs(t *testing.T) {
	Document[sample](map[string]string{"LR": "LR is the learning rate."})
	Document[inner](map[string]string{"Steps": "Steps caps the steps."})
	ks := Keys(sample{LR: 1e-3, Parts: []string{"a", "b"}, Inner: inner{Steps: 150}})
	got := map[string]Key{}
	for _, k := range ks {
		got[k.Name] = k
	}
	if k := got["lr"]; k.Type != "float64" || k.Default != "0.001" || k.Doc != "LR is the learning rate." {
		t.Errorf("lr: %+v", k)
	}
	if k := got["max_steps"]; k.Type != "int" || k.Default != "150" || k.Field != "Inner.Steps" || k.Doc != "Steps caps the steps." {
		t.Errorf("max_steps: %+v", k)
	}
	if k := got["parts"]; k.Type != "[]string" || k.Default != "a|b" {
		t.Errorf("parts: %+v", k)
	}
	if len(ks) != 8 {
		t.Errorf("%d keys, want 8: %+v", len(ks), ks)
	}
}

func TestParse(t *testing.T) {
	kv, err := Parse(" a=1; b = x ,c=")
	if err != nil || !reflect.DeepEqual(kv, map[string]string{"a": "1", "b": "x", "c": ""}) {
		t.Errorf("%v %v", kv, err)
	}
	if _, err := Parse("a=1;oops"); err == nil || !strings.Contains(err.Error(), "oops") {
		t.Errorf("item without =: %v", err)
	}
}
