package kernel

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
)

// corporaDir is where imported corpora are cached, shared by all notebooks
// of one output root.
func (nb *Notebook) corporaDir() string { return filepath.Join(filepath.Dir(nb.Dir), "corpora") }

// Import returns the utterances of a corpus of the catalog (data/corpus:
// corpus.MustLookup("tbbt")), importing it once from the shared corpora
// folder and caching it as Parquet under the output root's corpora/ folder
// (so every notebook reuses it). When the corpus is absent it prints a
// note and returns ok false.
func (nb *Notebook) Import(ctx context.Context, c corpus.Entry) (utts []data.Utterance, ok bool, err error) {
	if _, ok := nb.Shared(c.Dir); !ok {
		return nil, false, nil
	}
	cache := filepath.Join(nb.corporaDir(), c.Name+".parquet")
	if _, err := os.Stat(cache); err == nil && !nb.Fresh {
		utts, err := data.ReadUtterances(cache)
		if err == nil {
			return utts, true, nil
		}
		fmt.Fprintf(nb.stdout(), "note: cached corpus %s is unreadable (%v); importing again\n", cache, err)
	}
	res, err := c.Import(ctx, nil)
	if err != nil {
		return nil, true, nb.Report(err)
	}
	if err := os.MkdirAll(nb.corporaDir(), 0o755); err != nil {
		return nil, true, nb.Report(err)
	}
	if err := data.WriteUtterances(cache, res.Utterances); err != nil {
		return nil, true, nb.Report(err)
	}
	fmt.Fprintf(nb.stdout(), "imported %s (%s): %d utterances, %d speakers, %d conversations, %d lines dropped\n",
		c.Name, c.Format, res.Counts.Utterances, res.Counts.Speakers, res.Counts.Conversations, res.Counts.DroppedTotal())
	return res.Utterances, true, nil
}

// PaperUtterances returns the utterances of every available corpus of
// corpus.Paper() (Friends, TBBT, AnnoMI) plus the embedded Shakespeare,
// and the catalog names of the corpora used. Absent shared corpora are skipped with a note, so on a machine
// without ../shared the result is Shakespeare alone.
func (nb *Notebook) PaperUtterances(ctx context.Context) ([]data.Utterance, []string, error) {
	var all []data.Utterance
	var names []string
	for _, c := range corpus.Paper() {
		utts, ok, err := nb.Import(ctx, c)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			all = append(all, utts...)
			names = append(names, c.Name)
		}
	}
	sh, err := corpus.Default()
	if err != nil {
		return nil, nil, nb.Report(err)
	}
	return append(all, sh...), append(names, corpus.DefaultName), nil
}

// Cached returns the path Dir/name, making it first with make when it does
// not exist (or Fresh is set). make writes to the path it is given, a
// temporary sibling that is renamed into place when make succeeds, so an
// interrupted make never leaves a half-written file or folder behind. Use
// it for results stored in their own format (Parquet pair folders, ...).
func (nb *Notebook) Cached(name string, make func(path string) error) (string, error) {
	if err := checkName(name); err != nil {
		return "", nb.Report(err)
	}
	final := filepath.Join(nb.Dir, name)
	if _, err := os.Stat(final); err == nil && !nb.Fresh {
		return final, nil
	}
	if err := os.MkdirAll(nb.Dir, 0o755); err != nil {
		return "", nb.Report(err)
	}
	tmp, err := os.MkdirTemp(nb.Dir, ".tmp-"+name+"-")
	if err != nil {
		return "", nb.Report(err)
	}
	defer os.RemoveAll(tmp)
	work := filepath.Join(tmp, name)
	if err := make(work); err != nil {
		return "", nb.Report(err)
	}
	if _, err := os.Stat(work); err != nil {
		return "", nb.Report(fmt.Errorf("kernel: making %s wrote nothing at %s", name, work))
	}
	os.RemoveAll(final)
	if err := os.Rename(work, final); err != nil {
		return "", nb.Report(err)
	}
	return final, nil
}

// ImportAll returns the utterances of every available corpus of cs, in
// order (Import each; absent ones are skipped with a note).
func (nb *Notebook) ImportAll(ctx context.Context, cs ...corpus.Entry) ([]data.Utterance, error) {
	var all []data.Utterance
	for _, c := range cs {
		utts, ok, err := nb.Import(ctx, c)
		if err != nil {
			return nil, err
		}
		if ok {
			all = append(all, utts...)
		}
	}
	return all, nil
}
