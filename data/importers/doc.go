// Package importers converts real transcripts into RolePrint's one corpus
// row type, data.Utterance. Each input format (Friends HTML and JSON, MELD
// CSV, The Big Bang Theory, AnnoMI, Shakespeare, Cornell Movie Dialogs,
// Harry Potter movie CSVs, Multi-Session Chat, users' own tables) is an
// Importer registered by name, so the CLI's `--format NAME` and other
// packages (data/genimport adds the role-play formats) reach them all the
// same way:
//
//	res, err := importers.Import(ctx, "tbbt", []string{dir}, importers.Options{})
//	// res.Utterances, res.Counts.Speakers, res.Counts.Dropped["multiple_speakers"]
//
// Every importer feeds its lines through one Collector, which applies the
// shared rules: speaker names are normalised (NormalizeSpeaker), lines said
// by several people are dropped and counted (never credited to one of
// them), stage directions are removed from the text (CleanText), turns are
// numbered within each conversation, conversation IDs are unique per source,
// a conversation read twice (the same scene in two files) is kept once, and
// a long line its speaker already said in another conversation (a clip
// show's flashback) is dropped as a repeat.
//
// Every format reads bytes through one reading layer (textenc.go,
// reader.go; ReadTextFile for other packages): byte-order marks and UTF-16
// are recognised on the bytes, UTF-8 with stray Windows-1252 bytes decodes
// line by line, mojibake is repaired, CR, LF and CRLF line ends read alike.
// Folders are walked through symbolic links (walk.go); files that are not
// data (READMEs, licences, backups, empty and binary files) are skipped
// with a reason (Result.Skipped). Detect guesses a format from the files'
// content (detect.go).
//
// Bad input (missing file, empty file, wrong columns, invalid UTF-8 when
// asked for strictly) fails with an *InputError naming the file, the line
// or row, and what was expected.
package importers
