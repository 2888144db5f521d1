// Package corpus holds RolePrint's embedded default corpus: all 37 plays of
// Shakespeare (public domain), converted from the MIT edition's HTML by the
// shakespeare-html importer and embedded as a Parquet file, so every
// command and notebook has real conversations to run on without any
// download. Default returns it; Fingerprint identifies a corpus by content.
//
// The file is regenerated with `go generate ./data/corpus` (which needs
// ../shared/corpora/shakespeare-mit beside the project); a test re-imports
// the play pages when they are present and fails if the embedded file has
// drifted from what the importer now produces.
package corpus
