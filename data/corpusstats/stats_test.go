package corpusstats

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

func utt(source, conv, speaker, text string) data.Utterance {
	return data.Utterance{Source: source, ConversationID: conv, Speaker: speaker, Text: text}
}

func sample() []data.Utterance {
	return []data.Utterance{
		utt("tbbt", "c1", "Sheldon", "Bazinga you fool"),
		utt("tbbt", "c1", "Leonard", "Oh no"),
		utt("tbbt", "c1", "Sheldon", "Yes"),
		utt("tbbt", "c2", "Penny", "Hi guys"),
		utt("shakespeare/hamlet", "1.1", "First Citizen", "To be"),
		utt("shakespeare/coriolanus", "1.1", "First Citizen", "Before we proceed any further"),
		utt("shakespeare/coriolanus", "1.1", "First Citizen", "hear me speak"),
	}
}

func TestCompute(t *testing.T) {
	s := Compute(sample())
	if s.Utterances != 7 || s.Speakers != 5 || s.Conversations != 4 || s.NumSources != 3 || s.Words != 18 {
		t.Errorf("total %+v", s.Summary)
	}
	// Four conversations: c1 (2 speakers), c2 (1), hamlet 1.1 (1), coriolanus 1.1 (1).
	if s.UtterancesPerConversation != 7.0/4 || s.SpeakersPerConversation != 5.0/4 || s.WordsPerUtterance != 18.0/7 {
		t.Errorf("averages %+v", s.Summary)
	}
	wantTop := []SpeakerCount{
		{"First Citizen", "shakespeare/coriolanus", 2},
		{"Sheldon", "tbbt", 2},
		{"First Citizen", "shakespeare/hamlet", 1},
		{"Leonard", "tbbt", 1},
		{"Penny", "tbbt", 1},
	}
	if !reflect.DeepEqual(s.TopSpeakers, wantTop) {
		t.Errorf("top speakers %+v", s.TopSpeakers)
	}
	var names []string
	for _, d := range s.Datasets {
		names = append(names, d.Name)
	}
	if !reflect.DeepEqual(names, []string{"shakespeare", "tbbt"}) || s.Datasets[0].Speakers != 2 || s.Datasets[0].NumSources != 2 {
		t.Errorf("datasets %+v", s.Datasets)
	}
	if len(s.Sources) != 3 || s.Sources[2].Name != "tbbt" || s.Sources[2].Conversations != 2 {
		t.Errorf("sources %+v", s.Sources)
	}
}

func TestAccumulatorMatchesCompute(t *testing.T) {
	all := sample()
	a := NewAccumulator(2)
	a.Add(all[:3]...)
	a.Add(all[3:]...)
	got := a.Stats()
	if len(got.TopSpeakers) != 2 {
		t.Errorf("top limited to 2: %v", got.TopSpeakers)
	}
	want := Compute(all)
	got.TopSpeakers, want.TopSpeakers = nil, nil
	if got.Summary.Utterances != want.Summary.Utterances || got.Speakers != want.Speakers || len(got.Sources) != len(want.Sources) {
		t.Errorf("batched %+v vs whole %+v", got.Summary, want.Summary)
	}
}

func TestEmpty(t *testing.T) {
	s := Compute(nil)
	if s.Utterances != 0 || s.UtterancesPerConversation != 0 || len(s.TopSpeakers) != 0 {
		t.Errorf("%+v", s)
	}
	if md := s.Markdown(); !strings.Contains(md, "| **Total** | 0 | 0 | 0 | 0 | 0.00 |") {
		t.Errorf("empty markdown:\n%s", md)
	}
}

func TestJSONKeys(t *testing.T) {
	b, err := json.Marshal(Compute(sample()))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"utterances", "speakers", "conversations", "utterances_per_conversation", "top_speakers", "datasets", "sources"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
	top := m["top_speakers"].([]any)[0].(map[string]any)
	if top["speaker"] != "First Citizen" || top["utterances"] != 2.0 {
		t.Errorf("top_speakers[0] = %v", top)
	}
}

func TestMarkdown(t *testing.T) {
	md := Compute(sample()).Markdown()
	for _, want := range []string{
		"| shakespeare | 2 | 2 | 3 | 2 | 1.50 | 1.00 | 3.3 |",
		"| tbbt | 1 | 3 | 4 | 2 | 2.00 | 1.50 | 2.0 |",
		"| **Total** | 3 | 5 | 7 | 4 | 1.75 | 1.25 | 2.6 |",
		"| shakespeare/coriolanus | 1 | 2 | 1 | 2.00 | First Citizen (2) |",
		"| 1 | First Citizen | shakespeare/coriolanus | 2 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if thousands(1234567) != "1,234,567" || thousands(999) != "999" || thousands(-1000) != "-1,000" {
		t.Errorf("thousands: %s %s %s", thousands(1234567), thousands(999), thousands(-1000))
	}
}
