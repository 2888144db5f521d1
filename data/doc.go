// Package data holds RolePrint's corpora: the one utterance schema every
// corpus is converted to, its Parquet storage, the importers that read real
// transcripts (Friends, The Big Bang Theory, AnnoMI, Shakespeare, Cornell,
// Harry Potter, Multi-Session Chat, role-play outputs, users' own tables),
// and the pair builder that turns utterances into balanced pairs of
// utterance sets for speaker verification (Yang et al., "Speaker
// Verification in Agent-generated Conversations").
//
// Data flows one way: data → sv / speech / persona → plots / kernel. Nothing
// in this package imports the others.
package data

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type PairConfig
