package pairs_test

import (
	"fmt"
	"log"

	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
)

// Build the paper's verification pairs from utterances: training, dev and
// nine test sets (three exposures × three levels), reproducible from the
// configuration's seed.
func ExampleBuildPairs() {
	utts, err := corpus.Default() // the embedded Shakespeare corpus
	if err != nil {
		log.Fatal(err)
	}
	cfg := pairs.DefaultPairConfig()
	cfg.MaxTestPairs = 200
	c, err := pairs.BuildPairs(utts, cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("test sets:", len(c.Tests))
	k := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}
	var pos int
	for _, p := range c.Tests[k] {
		pos += int(p.Label)
	}
	fmt.Printf("%s: %d pairs, %d positive\n", k, len(c.Tests[k]), pos)
	// Output:
	// test sets: 9
	// unseen-unseen-base: 76 pairs, 38 positive
}
