package importers

import "testing"

func TestNormalizeSpeaker(t *testing.T) {
	cases := []struct {
		raw, want string
		reason    string
	}{
		{"SHELDON", "Sheldon", ""},
		{"sheldon", "Sheldon", ""},
		{"  Sheldon\t ", "Sheldon", ""},
		{"Penny (voice off, singing)", "Penny", ""},
		{"JOHN (V.O.)", "John", ""},
		{"JOHN (CONT'D)", "John", ""},
		{"Mary O.S.", "Mary", ""},
		{"Mary V.O.", "Mary", ""},
		{"LORD POLONIUS", "Lord Polonius", ""},
		{"KING HENRY V", "King Henry V", ""},
		{"king richard iii", "King Richard III", ""},
		{"MCGONAGALL", "McGonagall", ""},
		{"o'brien", "O'Brien", ""},
		{"Howard’s Mother", "Howard's Mother", ""},
		{"MR. HECKLES", "Mr. Heckles", ""},
		{"Mr.Heckles", "Mr. Heckles", ""},
		{"DR.GREEN:", "Dr. Green", ""},
		{"Phoebe Sr.", "Phoebe Sr", ""},
		{"Frank Jr.:", "Frank Jr", ""},
		{"C.H.E.E.S.E.", "C.H.E.E.S.E", ""},
		{"mary-jane", "Mary-Jane", ""},
		{"Sheldon-bot", "Sheldon-Bot", ""},
		{"#ALL#", "", DropMultipleSpeakers},
		{"All", "", DropMultipleSpeakers},
		{"ALL (chanting)", "", DropMultipleSpeakers},
		{"Everyone", "", DropMultipleSpeakers},
		{"Both", "", DropMultipleSpeakers},
		{"All Servants", "", DropMultipleSpeakers},
		{"Two Murderers", "", DropMultipleSpeakers},
		{"The three guys", "", DropMultipleSpeakers},
		{"Ross and Joey", "", DropMultipleSpeakers},
		{"Ross & Joey", "", DropMultipleSpeakers},
		{"ross and joey", "", DropMultipleSpeakers},
		{"Ross/Joey", "", DropMultipleSpeakers},
		{"Monica, Rachel, and Phoebe", "", DropMultipleSpeakers},
		{"ROSS, CHANDLER & JOEY", "", DropMultipleSpeakers},
		{"Leonard and Howard together", "", DropMultipleSpeakers},
		{"Mr. and Mrs. Geller", "", DropMultipleSpeakers},
		{"The Gang", "", DropMultipleSpeakers},
		{"Very tall and powerfully built man", "Very Tall And Powerfully Built Man", ""},
		{"Roy, the male stripper", "Roy, The Male Stripper", ""},
		{"Dr. Green, Sr.", "Dr. Green, Sr", ""},
		{"Wall", "Wall", ""},
		{"Chorus", "Chorus", ""},
		{"", "", DropNoSpeaker},
		{"(MACHINE--JOEY'S VOICE)", "", DropNoSpeaker},
		{"...", "", DropNoSpeaker},
	}
	for _, c := range cases {
		got, reason := normalizeSpeaker(c.raw)
		if got != c.want || reason != c.reason {
			t.Errorf("normalizeSpeaker(%q) = %q, %q; want %q, %q", c.raw, got, reason, c.want, c.reason)
		}
		name, ok := NormalizeSpeaker(c.raw)
		if ok != (c.reason == "") || name != c.want {
			t.Errorf("NormalizeSpeaker(%q) = %q, %v", c.raw, name, ok)
		}
	}
}

func TestNormalizeSpeakerIsIdempotent(t *testing.T) {
	for _, raw := range []string{"SHELDON", "Lord Polonius", "king henry v", "McGonagall", "Mr. Heckles", "Howard’s Mother (voice)", "Phoebe Sr.", "Mr.Heckles"} {
		once, _ := NormalizeSpeaker(raw)
		twice, _ := NormalizeSpeaker(once)
		if once != twice {
			t.Errorf("%q → %q → %q", raw, once, twice)
		}
	}
}

func TestCleanText(t *testing.T) {
	cases := map[string]string{
		"(to Ross) Hi there.":                  "Hi there.",
		"[Within]  Anon, anon.":                "Anon, anon.",
		"Wait (looks (around)) , what?":        "Wait, what?",
		"Hello\n  world":                       "Hello world",
		"(laughs)":                             "",
		"I'm sad :( but fine":                  "I'm sad :( but fine",
		"Go {beat} now [pause].":               "Go now.",
		"Mixed (open [bracket) stays]":         "Mixed stays]",
		"So does he have a hump?\u00a0 A hump": "So does he have a hump? A hump",
		// Directions the transcripts leave half-marked.
		"<i>She went into labor.</i>":                  "She went into labor.",
		"Whose side? <back to Amy> I'm not.":           "Whose side? I'm not.",
		"God! (She grabs the box and goes.]":           "God!",
		"Oh. (He takes the picture and hugs her.":      "Oh.",
		"Coke-(Yelps in":                               "Coke-",
		"Question 1) You were married, (looks) right?": "Question 1) You were married, right?",
		"I <3 you, :(Sure":                             "I <3 you, :(Sure",
		"x < y":                                        "x < y",
	}
	for in, want := range cases {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitSpeech(t *testing.T) {
	cases := []struct {
		line, speaker, text string
		ok                  bool
	}{
		{"Sheldon: Hi.", "Sheldon", "Hi.", true},
		{"Penny (to Leonard: quietly): Hi", "Penny (to Leonard: quietly)", "Hi", true},
		{"(MACHINE--JOEY'S VOICE): Here comes the beep", "", "Here comes the beep", true},
		{"Leonard closes door.", "", "", false},
		{"Time shift. Sheldon and Leonard are on the sofa, and this is long: yes", "", "", false},
		{"the narrator says: nothing", "", "", false},
		{"Why? Because: reasons", "", "", false},
	}
	for _, c := range cases {
		s, txt, ok := splitSpeech(c.line)
		if s != c.speaker || txt != c.text || ok != c.ok {
			t.Errorf("splitSpeech(%q) = %q, %q, %v; want %q, %q, %v", c.line, s, txt, ok, c.speaker, c.text, c.ok)
		}
	}
}
