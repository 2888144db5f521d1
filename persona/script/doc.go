// Package script reads screenplay-like text into scenes of speaker lines
// and cuts long scenes into chunks, the input of persona distillation.
//
// Parse understands the layouts of the shared corpora and of common
// screenplays:
//
//   - scene headings: "Scene: A corridor.", "[Scene: Central Perk]",
//     "INT. APARTMENT - NIGHT", "SCENE II. A room in the castle.",
//     "ACT I, SCENE 1";
//   - speaker lines "Name: text" (the name is at most four words and
//     starts with a capital; "Leonard (on phone)" becomes "Leonard");
//   - screenplay cues: a line of a capitalised name alone ("SHELDON",
//     "PENNY (V.O.)") followed by its dialogue lines up to a blank line;
//   - everything else (action paragraphs, "(They sit down.)") is
//     narration, kept as lines of the speaker Narrator.
//
// Inline stage directions in parentheses or brackets are removed from the
// spoken text. Corpus rows (data.Utterance) are accepted too: FromUtterances
// groups them by source and conversation into scenes.
package script
