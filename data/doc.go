// Package data holds RolePrint's corpora: the one utterance schema every
// corpus is converted to, its Parquet storage, the importers that read real
// transcripts (Friends, The Big Bang Theory, AnnoMI, Shakespeare, Cornell,
// Harry Potter, Multi-Session Chat, role-play outputs, users' own tables),
// one speaker-name table and normaliser (character_names.go) and the
// shared-corpus location (shared.go).
//
// Sub-packages: data/pairs (the pair builder and pair schema: balanced
// pairs of utterance sets for speaker verification), data/importers
// (corpus formats), data/genimport (role-play formats), data/corpus (the
// corpus catalog and the embedded Shakespeare), data/corpusstats,
// data/assets (the user cache).
//
// Data flows one way: data → stats / sv / speech / persona → plots →
// report → kernel → cmd (internal/layers_test.go checks it). Nothing in
// this package imports the others.
package data
