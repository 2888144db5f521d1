package importers

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// importFixture imports testdata paths and fails the test on error.
func importFixture(t *testing.T, format string, opts Options, paths ...string) *Result {
	t.Helper()
	for i, p := range paths {
		paths[i] = filepath.Join("testdata", p)
	}
	res, err := Import(context.Background(), format, paths, opts)
	if err != nil {
		t.Fatalf("import %s %v: %v", format, paths, err)
	}
	for i := range res.Utterances {
		if err := res.Utterances[i].Validate(); err != nil {
			t.Fatalf("utterance %d invalid: %v (%+v)", i, err, res.Utterances[i])
		}
	}
	return res
}

// rows renders utterances as "conversation|turn|speaker|text" lines.
func rows(utts []data.Utterance) []string {
	out := make([]string, len(utts))
	for i, u := range utts {
		out[i] = fmt.Sprintf("%s|%d|%s|%s", u.ConversationID, u.Turn, u.Speaker, u.Text)
	}
	return out
}

func checkRows(t *testing.T, got []data.Utterance, want ...string) {
	t.Helper()
	if g := rows(got); !reflect.DeepEqual(g, want) {
		t.Errorf("utterances:\n got  %s\n want %s", strings.Join(g, "\n      "), strings.Join(want, "\n      "))
	}
}

func checkDropped(t *testing.T, c Counts, want map[string]int) {
	t.Helper()
	if !reflect.DeepEqual(c.Dropped, want) {
		t.Errorf("dropped = %v, want %v", c.Dropped, want)
	}
}

func TestTBBT(t *testing.T) {
	res := importFixture(t, "tbbt", Options{}, "tbbt")
	checkRows(t, res.Utterances,
		"s01e01-c01|0|Sheldon|So if a photon is directed through a plane with two slits in it it will not go through both slits.",
		"s01e01-c01|1|Leonard|Agreed, what’s your point?",
		"s01e01-c01|2|Sheldon|There’s no point, I just think it’s a good idea for a tee-shirt.",
		"s01e01-c01|3|Receptionist|Hang on.",
		"s01e01-c01|4|Penny|La la la.",
		"s01e01-c01|5|Very Tall And Powerfully Built Man|Excuse me.",
		"s01e01-c02|0|Leonard|Hi.",
		"s01e01-c02|1|Sheldon|Goodbye.",
		"s02e10-c01|0|Penny|Oh, hi!",
	)
	checkDropped(t, res.Counts, map[string]int{
		DropStageDirection: 1, DropMultipleSpeakers: 3, DropCredits: 2, DropEmptyText: 1,
	})
	c := res.Counts
	if c.Files != 2 || c.Conversations != 3 || c.Speakers != 5 || c.Utterances != 9 || c.Sources != 1 {
		t.Errorf("counts %+v", c)
	}
	if u := res.Utterances[0]; u.Source != "tbbt" || u.Episode != "s01e01" || u.Scene != "A corridor at a sperm bank." {
		t.Errorf("metadata %+v", u)
	}
}

func TestFriendsHTML(t *testing.T) {
	var notes []string
	res := importFixture(t, "friends-html", Options{Logf: func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) }},
		"friends-html")
	checkRows(t, res.Utterances,
		"s01e01-c01|0|Monica|There's nothing to tell! He's just some guy I work with!",
		"s01e01-c01|1|Joey|C'mon, you're going out with the guy!",
		"s01e01-c01|2|Chandler|All right Joey, be nice. So does he have a hump?",
		"s01e01-c02|0|Phoebe|Wait, does he eat chalk?",
		"s01e01-c02|1|Mr. Heckles|You're doing it again.",
		"s01e02-c01|0|Monica|Uncut there's nothing to tell! He's just some guy I work with!",
		"s01e02-c01|1|Joey|C'mon, you're going out with the guy!",
		// Chandler's 10-word line of 0101 is a repeat here; the
		// shorter lines are not.
		"s01e02-c02|0|Phoebe|Wait, does he eat chalk?",
		"s01e02-c02|1|Mr. Heckles|You're doing it again.",
		"s02e11-c00|0|Chandler|Guys, Iéve got news!",
		"s02e11-c00|1|Joey|Monica’s pregnant?!",
		"s02e11-c01|0|Ross|Hi.",
	)
	// 0102.html is superseded by 0102uncut.html: read, but not imported.
	if res.Counts.Files != 4 || res.Counts.Conversations != 6 {
		t.Errorf("counts %+v", res.Counts)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "0102.html") || !strings.Contains(notes[0], "uncut") {
		t.Errorf("notes %q", notes)
	}
	checkDropped(t, res.Counts, map[string]int{DropCredits: 12, DropMultipleSpeakers: 4, DropStageDirection: 2, DropRepeatedLine: 1})
}

// TestCollectorDropsRepeatedLines: a line of RepeatMinWords words or more
// that its speaker said in another conversation of the source (a clip
// show's flashback) is dropped; shorter lines, the same words by another
// speaker or in another source, a repeat within one conversation and
// generated text (KeepText) are kept.
func TestCollectorDropsRepeatedLines(t *testing.T) {
	long := "We were on a break, and you know that we were."
	c := NewCollector("test", Options{})
	for _, l := range []Line{
		{Source: "friends", ConversationID: "s03e15-c01", Speaker: "Ross", Text: long},
		{Source: "friends", ConversationID: "s03e15-c01", Speaker: "Ross", Text: long},
		{Source: "friends", ConversationID: "s04e21-c03", Speaker: "ROSS", Text: "  " + long + " (yelling)"},
		{Source: "friends", ConversationID: "s04e21-c03", Speaker: "Rachel", Text: long},
		{Source: "friends", ConversationID: "s04e21-c03", Speaker: "Ross", Text: "Oh my God, oh my God!"},
		{Source: "friends", ConversationID: "s05e01-c01", Speaker: "Ross", Text: "Oh my God, oh my God!"},
		{Source: "friends-copy", ConversationID: "s04e21-c03", Speaker: "Ross", Text: long},
		{Source: "friends", ConversationID: "gen-1", Speaker: "Ross", Text: long, KeepText: true},
	} {
		c.Add(l)
	}
	res := c.Result()
	if n := res.Counts.Utterances; n != 7 {
		t.Errorf("%d utterances kept, want 7", n)
	}
	checkDropped(t, res.Counts, map[string]int{DropRepeatedLine: 1})
	for _, u := range res.Utterances {
		if u.ConversationID == "s04e21-c03" && u.Speaker == "Ross" && u.Source == "friends" && u.Text == long {
			t.Errorf("flashback line kept: %+v", u)
		}
	}
}

func TestFriendsJSON(t *testing.T) {
	res := importFixture(t, "friends-json", Options{}, "friends-json")
	checkRows(t, res.Utterances,
		"s01_e01_c01|0|Monica Geller|There's nothing to tell!",
		"s01_e01_c01|1|Joey Tribbiani|C'mon, you're going out with the guy!",
		"s01_e01_c01|2|Chandler Bing|All right Joey, be nice.",
		"s01_e01_c02|0|Ross Geller|Hi.",
		"s01_e01_c03|0|Rachel Green|Bye.",
	)
	checkDropped(t, res.Counts, map[string]int{DropMultipleSpeakers: 1, DropNoSpeaker: 1, DropDuplicateConversation: 1})
	if u := res.Utterances[0]; u.Source != "friends" || u.Episode != "s01_e01" {
		t.Errorf("metadata %+v", u)
	}
}

func TestMELD(t *testing.T) {
	res := importFixture(t, "meld-csv", Options{}, "meld")
	checkRows(t, res.Utterances,
		"s01e15-c01|0|Rachel Green|Coffee.",
		"s01e15-c01|1|Joey Tribbiani|Thank you.",
		"s01e15-c02|0|Joey's Mom|It's Joey's, \"obviously\".",
		"train_sent_emo-d0|0|Phoebe|Oh my God, he’s lost it. He’s totally lost it.",
		"train_sent_emo-d0|1|Monica|What?",
		"train_sent_emo-d1|0|Monica|Hi.",
	)
	checkDropped(t, res.Counts, map[string]int{DropMultipleSpeakers: 2})
	u := res.Utterances[3]
	if u.StartS == nil || *u.StartS != 20*60+57.256 || u.EndS == nil || *u.EndS != 21*60+0.049 || u.Episode != "s04e07" {
		t.Errorf("times/episode %+v", u)
	}
	if res.Utterances[5].StartS != nil {
		t.Errorf("reversed span kept: %+v", res.Utterances[5])
	}
}

func TestAnnoMIWindows(t *testing.T) {
	res := importFixture(t, "annomi", Options{}, "annomi/AnnoMI-full.csv")
	sizes := map[string]int{}
	for _, u := range res.Utterances {
		sizes[u.ConversationID]++
		role := "therapist"
		if strings.HasPrefix(u.Text, "client") || strings.Contains(u.Text, "says 1") {
			role = "client"
		}
		tid := strings.TrimPrefix(u.Episode, "transcript-")
		if u.Speaker != role+":"+tid {
			t.Errorf("speaker %q for %q", u.Speaker, u.Text)
		}
	}
	if !reflect.DeepEqual(sizes, map[string]int{"t7-s01": 13, "t7-s02": 12, "t3-s01": 3}) {
		t.Errorf("session sizes %v", sizes)
	}
	// Transcript 3 is given out of order; the turns follow utterance_id.
	var t3 []string
	for _, u := range res.Utterances {
		if u.ConversationID == "t3-s01" {
			t3 = append(t3, u.Text)
		}
	}
	if !reflect.DeepEqual(t3, []string{"therapist says 0", "client says 1", "therapist says 2"}) {
		t.Errorf("transcript 3 order %q", t3)
	}
	checkDropped(t, res.Counts, map[string]int{DropDuplicateRow: 1, DropEmptyText: 1})
	if res.Counts.Speakers != 4 {
		t.Errorf("speakers %d, want 4 (client and therapist of 2 transcripts)", res.Counts.Speakers)
	}
}

func TestAnnoMISettings(t *testing.T) {
	res := importFixture(t, "annomi", Options{Params: map[string]string{"therapist": "drop", "window": "10"}}, "annomi/AnnoMI-full.csv")
	for _, u := range res.Utterances {
		if strings.HasPrefix(u.Speaker, "therapist:") {
			t.Fatalf("therapist kept: %+v", u)
		}
	}
	if res.Counts.Conversations != 4 || res.Counts.Dropped[DropTherapist] != 15 {
		t.Errorf("counts %+v (want 3 windows of transcript 7 and 1 of transcript 3, 13+2 therapist lines)", res.Counts)
	}
	staged := importFixture(t, "annomi", Options{}, "annomi/staged.csv")
	var scenes []string
	for _, u := range staged.Utterances {
		scenes = append(scenes, u.ConversationID+" "+u.Scene)
	}
	want := []string{"t1-s01 stage engaging", "t1-s01 stage engaging", "t1-s02 stage focusing", "t1-s02 stage focusing",
		"t1-s02 stage focusing", "t1-s03 stage evoking"}
	if !reflect.DeepEqual(scenes, want) {
		t.Errorf("stages %q", scenes)
	}
	if _, err := Import(context.Background(), "annomi", []string{"testdata/annomi/staged.csv"},
		Options{Params: map[string]string{"therapist": "maybe"}}); err == nil || !strings.Contains(err.Error(), "keep or drop") {
		t.Errorf("bad therapist setting: %v", err)
	}
}

func TestShakespeare(t *testing.T) {
	res := importFixture(t, "shakespeare-html", Options{}, "shakespeare")
	checkRows(t, res.Utterances,
		"1.0|0|Chorus|Two households, both alike in dignity,",
		"1.1|0|Bernardo|Who's there?",
		"1.1|1|Francisco|Nay, answer me: stand, and unfold yourself. Long live the king!",
		"2.1|0|Lord Polonius|Give him this money and these notes, Reynaldo.",
		"2.1|1|King Henry V|Once more unto the breach.",
	)
	u := res.Utterances[1]
	if u.Source != "shakespeare/the-tiny-tragedy" || u.Episode != "ACT I" || u.Scene != "SCENE I. Elsinore. A platform before the castle." {
		t.Errorf("metadata %+v", u)
	}
	// The copy under Tragedy/ is the same play: all of it counts as duplicate.
	// about.html holds no play and is skipped.
	if res.Counts.SkippedFiles != 1 || res.Counts.Files != 2 {
		t.Errorf("counts %+v", res.Counts)
	}
	checkDropped(t, res.Counts, map[string]int{DropMultipleSpeakers: 1, DropStageDirection: 2, DropDuplicateConversation: 8})
}

func TestCornell(t *testing.T) {
	res := importFixture(t, "cornell", Options{}, "cornell")
	src := map[string]int{}
	speakers := map[string]bool{}
	for _, u := range res.Utterances {
		src[u.Source+" "+u.ConversationID]++
		speakers[u.Source+" "+u.Speaker] = true
	}
	if !reflect.DeepEqual(src, map[string]int{
		"cornell/10-things-i-hate-about-you-1999 L100": 13,
		"cornell/1492-conquest-of-paradise-1992 L300":  11,
	}) {
		t.Errorf("conversations %v", src)
	}
	if len(speakers) != 4 || !speakers["cornell/1492-conquest-of-paradise-1992 Cameron"] {
		t.Errorf("speakers %v (Cameron of two films must be two speakers)", speakers)
	}
	checkDropped(t, res.Counts, map[string]int{DropShortConversation: 4, DropMarkup: 1})
	if res.Counts.Files != 4 || res.Utterances[0].Text != "Line 100 from bianca." || res.Utterances[0].Episode != "10 things i hate about you (1999)" {
		t.Errorf("counts %+v first %+v", res.Counts, res.Utterances[0])
	}
	// Shorter chains are kept with a lower minimum; without the titles
	// file the source is the movie ID.
	res = importFixture(t, "cornell", Options{Params: map[string]string{"min_turns": "2"}},
		"cornell/movie_lines.txt", "cornell/movie_conversations.txt")
	if res.Counts.Conversations != 3 || res.Utterances[0].Source != "cornell/m0" {
		t.Errorf("min_turns=2: %+v %q", res.Counts, res.Utterances[0].Source)
	}
	_, err := Import(context.Background(), "cornell", []string{"testdata/cornell/movie_lines.txt"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "movie_conversations.txt") {
		t.Errorf("missing conversations file: %v", err)
	}
}

func TestHPMovies(t *testing.T) {
	res := importFixture(t, "hp-movies", Options{}, "hp")
	checkRows(t, res.Utterances,
		"c1-p8|0|Harry Potter|I should’ve known.",
		"c1-p8|1|Hermione Granger|Yes, you should have.",
		"c1-p8|2|Harry Potter|Back here again.",
		"c1-p9|0|Ron Weasley|Bloody hell.",
		"c2-p8|0|Hermione Granger|Café au lait?",
	)
	checkDropped(t, res.Counts, map[string]int{DropUnknownSpeakerID: 1})
	u := res.Utterances[0]
	if u.Source != "harry-potter" || u.Episode != "Harry Potter and the Philosopher’s Stone: Doorstep Delivery" || u.Scene != "4 Privet Drive" {
		t.Errorf("metadata %+v", u)
	}
	if res.Counts.Files != 5 {
		t.Errorf("files %d", res.Counts.Files)
	}
	res = importFixture(t, "hp-movies", Options{}, "hp/Dialogue.csv", "hp/Characters.csv")
	if res.Utterances[0].Episode != "" || res.Counts.Utterances != 5 {
		t.Errorf("without metadata tables: %+v", res.Utterances[0])
	}
}

func TestMSC(t *testing.T) {
	res := importFixture(t, "msc", Options{}, "msc")
	checkRows(t, res.Utterances,
		"train_0/s1|0|speaker-1:train_0|Hi! I love dogs.",
		"train_0/s1|1|speaker-2:train_0|I work at a bank.",
		"train_0/s1|2|speaker-1:train_0|Cool.",
		"train_0/s2|0|speaker-1:train_0|How was the bank today?",
		"train_0/s2|1|speaker-2:train_0|Busy! How are your dogs?",
		"train_0/s2|2|speaker-1:train_0|They are great.",
		"train_1/s1|0|speaker-1:train_1|First.",
		"train_1/s1|1|speaker-2:train_1|Second.",
		"train_1/s2|0|speaker-1:train_1|Hello again.",
		"train_1/s2|1|speaker-2:train_1|Hi.",
		"train_0/s3|0|speaker-2:train_0|Back again!",
		"train_0/s3|1|speaker-1:train_0|Yes.",
	)
	checkDropped(t, res.Counts, map[string]int{DropDuplicateConversation: 6})
	if res.Counts.Speakers != 4 || res.Utterances[0].Scene != "session 1" || res.Utterances[0].Episode != "train_0" {
		t.Errorf("counts %+v first %+v", res.Counts, res.Utterances[0])
	}
}

func TestLines(t *testing.T) {
	res := importFixture(t, "lines", Options{Columns: map[string]string{"speaker": "who", "text": "line", "conversation": "scene"}},
		"lines/chat.tsv")
	checkRows(t, res.Utterances,
		"1|0|Alice|Hello there.",
		"1|1|Bob|Hi, Alice.",
		"2|0|Alice|Fine.",
	)
	if u := res.Utterances[1]; u.Source != "chat" || u.StartS == nil || *u.StartS != 3 {
		t.Errorf("source/time %+v", u)
	}
	checkDropped(t, res.Counts, map[string]int{DropMultipleSpeakers: 1})

	res = importFixture(t, "lines", Options{Source: "mine"}, "lines/plain.csv")
	checkRows(t, res.Utterances, "plain|0|Ann|First line.", "plain|1|Ben|Second line.")
	if res.Utterances[0].Source != "mine" {
		t.Errorf("source %q", res.Utterances[0].Source)
	}
	raw := importFixture(t, "lines", Options{Columns: map[string]string{"speaker": "who", "text": "line", "conversation": "scene"},
		Params: map[string]string{"normalize": "false"}}, "lines/chat.tsv")
	if raw.Utterances[1].Speaker != "Bob (O.S.)" || raw.Counts.Utterances != 4 {
		t.Errorf("normalize=false: %q", rows(raw.Utterances))
	}
	for _, bad := range []map[string]string{{"speaker": "nope"}, {"colour": "who"}} {
		_, err := Import(context.Background(), "lines", []string{"testdata/lines/chat.tsv"}, Options{Columns: bad})
		if err == nil {
			t.Errorf("--map %v accepted", bad)
		}
	}
}
