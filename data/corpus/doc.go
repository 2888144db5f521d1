// Package corpus is RolePrint's corpus catalog and its embedded default
// corpus.
//
// The catalog (catalog.go: Catalog, Lookup, Paper) is the one table of the
// corpora the project reads: a name, the importer format, the folder and
// paths under ../shared/corpora and what the corpus is. The CLI
// (roleprint import --corpus NAME, --corpora to list), the notebooks
// (kernel's nb.Import(ctx, corpus.MustLookup(NAME)), nb.PaperUtterances)
// and tests load corpora by these names; Entry.Import runs the importer,
// so nothing above the data layer needs to know formats or paths.
//
// The embedded default corpus is all 37 plays of
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
