package baseline

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/jdkato/prose/v2"
	"github.com/mingrammer/commonregex"
)

// posTagger is prose v2.0.0's averaged-perceptron tagger (tag.go:
// perceptronTagger.tag, featurize, predict) re-run on prose's own model
// weights (prose.Asset), with one change: it is deterministic.
//
// Hand-written because prose's predict is not: it sums each class's score
// by ranging over a Go map of features and picks the best class by ranging
// over a Go map of scores, keeping the first strictly larger one. Go
// randomises map iteration, so the float sums come out in a different order
// (different last bits) and ties go to a random class; with them about 1
// utterance in 5,000 of the embedded corpus got different tags in two runs
// of one binary, which moved the "pos" row's ACC/F1 by up to ~5 points.
// Here the features are summed in featurize's fixed order and a tie goes to
// the class listed first in the model's classes.gob. prose's methods are
// unexported, so the fix cannot be made inside the library.
type posTagger struct {
	classes []string
	tagMap  map[string]string
	// weights maps a feature to its (class index, weight) pairs.
	weights map[string][]classWeight
}

type classWeight struct {
	class  int
	weight float64
}

// loadPOSTagger decodes prose's embedded AveragedPerceptron model.
func loadPOSTagger() (*posTagger, error) {
	decode := func(name string, v any) error {
		b, err := prose.Asset("model/AveragedPerceptron/" + name)
		if err != nil {
			return fmt.Errorf("load prose tagger %s: %w", name, err)
		}
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(v); err != nil {
			return fmt.Errorf("load prose tagger %s: %w", name, err)
		}
		return nil
	}
	var classes []string
	var tags map[string]string
	var wts map[string]map[string]float64
	if err := decode("classes.gob", &classes); err != nil {
		return nil, err
	}
	if err := decode("tags.gob", &tags); err != nil {
		return nil, err
	}
	if err := decode("weights.gob", &wts); err != nil {
		return nil, err
	}
	idx := make(map[string]int, len(classes))
	for i, c := range classes {
		idx[c] = i
	}
	t := &posTagger{classes: classes, tagMap: tags, weights: make(map[string][]classWeight, len(wts))}
	for feat, ws := range wts {
		cw := make([]classWeight, 0, len(ws))
		for c, w := range ws {
			i, ok := idx[c]
			if !ok {
				return nil, fmt.Errorf("load prose tagger: weight for class %q not in classes.gob", c)
			}
			cw = append(cw, classWeight{i, w})
		}
		t.weights[feat] = cw
	}
	return t, nil
}

// Regular expressions and emoticons copied from prose v2.0.0 (tag.go,
// tokenize.go), where they are unexported.
var (
	posNoneRE = regexp.MustCompile(`^(?:0|\*[\w?]\*|\*\-\d{1,3}|\*[A-Z]+\*\-\d{1,3}|\*)$`)
	posKeepRE = regexp.MustCompile(`^\-[A-Z]{3}\-$`)
)

var posEmoticons = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range []string{
		"(-8", "(-;", "(-_-)", "(._.)", "(:", "(=", "(o:", "(¬_¬)", "(ಠ_ಠ)", "(╯°□°）╯︵┻━┻",
		"-__-", "8-)", "8-D", "8D", ":(", ":((", ":(((", ":()", ":)))", ":-)", ":-))", ":-)))",
		":-*", ":-/", ":-X", ":-]", ":-o", ":-p", ":-x", ":-|", ":-}", ":0", ":3", ":P", ":]",
		":`(", ":`)", ":`-(", ":o", ":o)", "=(", "=)", "=D", "=|", "@_@", "O.o", "O_o", "V_V",
		"XDD", "[-:", "^___^", "o_0", "o_O", "o_o", "v_v", "xD", "xDD", `¯\(ツ)/¯`,
	} {
		m[e] = true
	}
	return m
}()

// tag returns the Penn Treebank tag of each token, as prose's
// perceptronTagger.tag does.
func (pt *posTagger) tag(words []string) []string {
	p1, p2 := "-START-", "-START2-"
	ctx := make([]string, len(words)+4)
	ctx[0], ctx[1] = p1, p2
	for i, w := range words {
		ctx[i+2] = posNormalize(w)
	}
	ctx[len(ctx)-2], ctx[len(ctx)-1] = "-END-", "-END2-"
	tags := make([]string, len(words))
	scores := make([]float64, len(pt.classes))
	for i, word := range words {
		var tag string
		var found bool
		switch {
		case word == "-":
			tag = "-"
		case posEmoticons[word]:
			tag = "SYM"
		case commonregex.LinkRegex.MatchString(word) || commonregex.EmailRegex.MatchString(word) || strings.HasPrefix(word, "@"):
			tag = "NN"
		case posNoneRE.MatchString(word):
			tag = "-NONE-"
		case posKeepRE.MatchString(word):
			tag = word
		default:
			if tag, found = pt.tagMap[word]; !found {
				tag = pt.predict(posFeaturize(i, ctx, word, p1, p2), scores)
			}
		}
		tags[i] = tag
		p2, p1 = p1, tag
	}
	return tags
}

// predict sums the weights of feats (each counted once: featurize's keys
// are distinct) in order and returns the best class, the first listed on a
// tie. scores is scratch space of len(classes).
func (pt *posTagger) predict(feats []string, scores []float64) string {
	for i := range scores {
		scores[i] = 0
	}
	seen := make([]bool, len(scores))
	for _, f := range feats {
		for _, cw := range pt.weights[f] {
			scores[cw.class] += cw.weight
			seen[cw.class] = true
		}
	}
	best, max := -1, math.Inf(-1)
	for i, s := range scores {
		if seen[i] && s > max {
			best, max = i, s
		}
	}
	if best < 0 {
		return "" // prose returns "" when no feature has weights
	}
	return pt.classes[best]
}

// posFeaturize lists prose's features of word i in a fixed order.
func posFeaturize(i int, ctx []string, w, p1, p2 string) []string {
	suf := min(len(w), 3)
	i = min(len(ctx)-2, i+2)
	iminus := min(len(ctx[i-1]), 3)
	iplus := min(len(ctx[i+1]), 3)
	return []string{
		"bias",
		"i suffix " + w[len(w)-suf:],
		"i pref1 " + string(w[0]),
		"i-1 tag " + p1,
		"i-2 tag " + p2,
		"i tag+i-2 tag " + p1 + " " + p2,
		"i word " + ctx[i],
		"i-1 tag+i word " + p1 + " " + ctx[i],
		"i-1 word " + ctx[i-1],
		"i-1 suffix " + ctx[i-1][len(ctx[i-1])-iminus:],
		"i-2 word " + ctx[i-2],
		"i+1 word " + ctx[i+1],
		"i+1 suffix " + ctx[i+1][len(ctx[i+1])-iplus:],
		"i+2 word " + ctx[i+2],
	}
}

// posNormalize is prose's normalize.
func posNormalize(word string) string {
	if word == "" {
		return word
	}
	first := string(word[0])
	if strings.Contains(word, "-") && first != "-" {
		return "!HYPHEN"
	} else if _, err := strconv.Atoi(word); err == nil && len(word) == 4 {
		return "!YEAR"
	} else if _, err := strconv.Atoi(first); err == nil {
		return "!DIGITS"
	}
	return strings.ToLower(word)
}
