// Package corpusstats computes corpus statistics like the seed paper's
// Table 4 (speakers, utterances, conversations, average turns per
// conversation) overall, per dataset and per source, with the most
// frequent speakers, and renders them as Markdown.
//
// A speaker is a (source, name) pair, as everywhere in RolePrint: "First
// Citizen" of two plays is two speakers. A dataset is the part of a source
// before its first "/" ("shakespeare" for "shakespeare/hamlet"), so a
// collection of works gets one Table 4 row.
//
// Statistics accumulate batch by batch (Accumulator), so a corpus file
// streamed with data.ScanUtterances never has to fit in memory as rows.
package corpusstats
