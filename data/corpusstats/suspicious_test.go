package corpusstats

import (
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

func TestSuspicious(t *testing.T) {
	utts := []data.Utterance{
		{Source: "hp", Speaker: "Harry", Text: "Fine, thanks."},
		{Source: "hp", Speaker: "Hermione", Text: "It's in the water.â€�"},
		{Source: "hp", Speaker: "Harry", Text: "SÃ©lithaeine"},
		{Source: "hp", Speaker: "Ron", Text: "Bloody \ufffd hell"},
		{Source: "hp", Speaker: "Ron", Text: "  "},
		{Source: "hp", Speaker: "Ron", Text: "bell\x07"},
		{Source: "hp", Speaker: "Students", Text: "Yes, Professor."},
		{Source: "hp", Speaker: "Students", Text: "No, Professor."},
		{Source: "hp", Speaker: "Ghosts", Text: "Boo."},
		{Source: "msc", Speaker: "50997", Text: "hello"},
		{Source: "hp", Speaker: "Fred and George", Text: "Hi."},
		{Source: "hp", Speaker: "Café owner", Text: "Café, déjà vu, naïve: ordinary accents."},
		{Source: "annomi", Speaker: "client:12", Text: "ok"},
		{Source: "hp", Speaker: "", Text: "Who said this?"},
	}
	for i := range utts {
		utts[i].ConversationID = "c"
	}
	sc := NewSuspiciousScanner(2)
	for i := range utts {
		sc.Add("c.parquet", i, &utts[i])
	}
	s := sc.Result()
	if s.Mojibake.Rows != 2 || s.Mojibake.Examples[0].Row != 1 || s.Mojibake.Examples[1].Row != 2 {
		t.Errorf("mojibake %+v", s.Mojibake)
	}
	if s.ReplacementChar.Rows != 2 || s.ReplacementChar.Examples[0].Row != 1 { // "â€�" holds U+FFFD too
		t.Errorf("U+FFFD %+v", s.ReplacementChar)
	}
	if s.EmptyText.Rows != 1 || s.EmptyText.Examples[0].Row != 4 || s.ControlChars.Rows != 1 || s.ControlChars.Examples[0].Row != 5 {
		t.Errorf("empty %+v control %+v", s.EmptyText, s.ControlChars)
	}
	if s.IDSpeakers.Speakers != 1 || s.IDSpeakers.Examples[0].Speaker != "50997" || s.IDSpeakers.Examples[0].Row != 9 {
		t.Errorf("ids %+v", s.IDSpeakers)
	}
	if s.GroupSpeakers.Speakers != 3 || s.GroupSpeakers.Rows != 4 || len(s.GroupSpeakers.Examples) != 2 ||
		s.GroupSpeakers.Examples[0].Speaker != "Students" || s.GroupSpeakers.Examples[0].Utterances != 2 {
		t.Errorf("groups %+v", s.GroupSpeakers)
	}
	if s.InvalidRows.Rows != 1 || s.InvalidRows.Examples[0].Row != 13 || s.InvalidRows.Examples[0].Problem != "missing speaker" {
		t.Errorf("invalid %+v", s.InvalidRows)
	}
	if s.Total != 2+2+1+1+1+1+3 {
		t.Errorf("total %d", s.Total)
	}
	var b strings.Builder
	WriteSuspicious(&b, s)
	for _, want := range []string{"- mojibake: 2 rows", "c.parquet row 1 (hp, Hermione)", `"50997" in msc: 1 rows`, "speakers that name a group: 3 speakers, 4 rows"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	clean := NewSuspiciousScanner(0)
	clean.Add("c", 0, &utts[0])
	if r := clean.Result(); r.Total != 0 || r.Mojibake.Examples == nil {
		t.Errorf("clean corpus: %+v", r)
	}
}
