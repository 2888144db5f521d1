package textmetrics

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/internal/fsx"
)

// WordNetEnv names a folder holding WordNet's dict files (index.noun,
// noun.exc, ...); it overrides DefaultWordNetDirs.
const WordNetEnv = "WNSEARCHDIR"

// DefaultWordNetDirs are searched in order for WordNet 3.0's dict files:
// Debian's wordnet-base package installs them in /usr/share/wordnet.
var DefaultWordNetDirs = []string{"/usr/share/wordnet", "/usr/local/share/wordnet", "/usr/share/wordnet/dict", "/usr/local/WordNet-3.0/dict"}

// WordNet holds what METEOR's synonym module needs from WordNet: for each
// part of speech, lemma → synset offsets, synset → lemmas, and the
// morphological exception lists. It reads the plain-text index and
// exception files (no data files), about 150k lemmas, in a few hundred
// milliseconds. Written by hand because no maintained Go module reads the
// WordNet database files.
type WordNet struct {
	// Dir is the folder it was read from.
	Dir string
	pos [4]wnPOS
}

type wnPOS struct {
	lemmaSyn map[string][]uint32
	synLemma map[uint32][]string
	exc      map[string][]string
	rules    [][2]string
}

var wnPOSNames = [4]string{"noun", "verb", "adj", "adv"}

// Morphological detachment rules of WordNet's morphy (and NLTK's).
var wnRules = [4][][2]string{
	{{"s", ""}, {"ses", "s"}, {"ves", "f"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"}},
	{{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}},
	{{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
	nil,
}

var (
	wnOnce   sync.Mutex
	wnLoaded = map[string]*WordNet{}
)

// FindWordNet returns the first folder among $WNSEARCHDIR and
// DefaultWordNetDirs that holds index.noun, or "" when WordNet is not
// installed (apt-get install wordnet-base).
func FindWordNet() string {
	dirs := DefaultWordNetDirs
	if d := os.Getenv(WordNetEnv); d != "" {
		dirs = append([]string{d}, dirs...)
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "index.noun")); err == nil {
			return d
		}
	}
	return ""
}

// LoadWordNet reads WordNet from dir ("" = FindWordNet()); the result is
// shared by later calls for the same folder. A missing WordNet is an
// error saying how to install it.
func LoadWordNet(dir string) (*WordNet, error) {
	if dir == "" {
		dir = FindWordNet()
		if dir == "" {
			return nil, fmt.Errorf("WordNet not found in %s or $%s: install it with `apt-get install wordnet-base`", strings.Join(DefaultWordNetDirs, ", "), WordNetEnv)
		}
	}
	wnOnce.Lock()
	defer wnOnce.Unlock()
	if w, ok := wnLoaded[dir]; ok {
		return w, nil
	}
	w := &WordNet{Dir: dir}
	for i, name := range wnPOSNames {
		p := &w.pos[i]
		p.lemmaSyn = map[string][]uint32{}
		p.synLemma = map[uint32][]string{}
		p.exc = map[string][]string{}
		p.rules = wnRules[i]
		if err := readIndex(filepath.Join(dir, "index."+name), p); err != nil {
			return nil, err
		}
		if err := readExc(filepath.Join(dir, name+".exc"), p); err != nil {
			return nil, err
		}
	}
	wnLoaded[dir] = w
	return w, nil
}

// readIndex reads "lemma pos synset_cnt p_cnt [ptr...] sense_cnt
// tagsense_cnt offset..." lines; license lines start with a space.
func readIndex(path string, p *wnPOS) error {
	f, err := fsx.Open(path)
	if err != nil {
		return fmt.Errorf("wordnet: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || line[0] == ' ' {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 6 {
			return fmt.Errorf("wordnet %s:%d: short index line", path, n)
		}
		var synCnt, pCnt int
		if _, err := fmt.Sscan(fs[2], &synCnt); err != nil {
			return fmt.Errorf("wordnet %s:%d: synset_cnt %q", path, n, fs[2])
		}
		if _, err := fmt.Sscan(fs[3], &pCnt); err != nil {
			return fmt.Errorf("wordnet %s:%d: p_cnt %q", path, n, fs[3])
		}
		offs := fs[4+pCnt+2:]
		if len(offs) != synCnt {
			return fmt.Errorf("wordnet %s:%d: %d offsets, header says %d", path, n, len(offs), synCnt)
		}
		lemma := fs[0]
		for _, o := range offs {
			var off uint32
			if _, err := fmt.Sscan(o, &off); err != nil {
				return fmt.Errorf("wordnet %s:%d: offset %q", path, n, o)
			}
			p.lemmaSyn[lemma] = append(p.lemmaSyn[lemma], off)
			p.synLemma[off] = append(p.synLemma[off], lemma)
		}
	}
	return sc.Err()
}

func readExc(path string, p *wnPOS) error {
	f, err := fsx.Open(path)
	if err != nil {
		return fmt.Errorf("wordnet: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 {
			p.exc[fs[0]] = append(p.exc[fs[0]], fs[1:]...)
		}
	}
	return sc.Err()
}

// morphy returns the base forms of word in part of speech p that are in
// WordNet, the way WordNet's morphy (and NLTK's _morphy) finds them:
// exceptions first, then the word itself and one round of detachment
// rules, then further rounds until something is found.
func (w *WordNet) morphy(word string, p *wnPOS) []string {
	filter := func(forms []string) []string {
		var out []string
		seen := map[string]bool{}
		for _, f := range forms {
			if _, ok := p.lemmaSyn[f]; ok && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
		return out
	}
	apply := func(forms []string) []string {
		var out []string
		for _, f := range forms {
			for _, r := range p.rules {
				if strings.HasSuffix(f, r[0]) {
					out = append(out, f[:len(f)-len(r[0])]+r[1])
				}
			}
		}
		return out
	}
	if ex, ok := p.exc[word]; ok {
		return filter(append([]string{word}, ex...))
	}
	forms := apply([]string{word})
	if res := filter(append([]string{word}, forms...)); len(res) > 0 {
		return res
	}
	for len(forms) > 0 {
		forms = apply(forms)
		if res := filter(forms); len(res) > 0 {
			return res
		}
	}
	return nil
}

// Synonyms returns every single-word lemma that shares a synset with
// word in any part of speech (after morphy), word itself included: the
// set NLTK's METEOR matches a reference word against.
func (w *WordNet) Synonyms(word string) map[string]bool {
	word = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(word)), " ", "_")
	out := map[string]bool{word: true}
	for i := range w.pos {
		p := &w.pos[i]
		for _, base := range w.morphy(word, p) {
			for _, off := range p.lemmaSyn[base] {
				for _, l := range p.synLemma[off] {
					if !strings.Contains(l, "_") {
						out[l] = true
					}
				}
			}
		}
	}
	return out
}
