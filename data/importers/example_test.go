package importers_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/roleprint/roleprint/data/importers"
)

// Import a corpus: a table of your own ("lines": CSV with a header, one
// utterance per row) read into utterances, grouped by conversation with
// turns numbered. A release in a known format is read the same way with
// its format name ("tbbt", "friends-json", "shakespeare-html", ...:
// importers.Formats).
func ExampleImport() {
	dir, err := os.MkdirTemp("", "import-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "chat.csv")
	table := "conversation,speaker,text\n" +
		"c1,Ada,Shall we begin?\n" +
		"c1,Ben,Indeed we shall.\n" +
		"c2,Ada,Once more then.\n"
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		log.Fatal(err)
	}
	res, err := importers.Import(context.Background(), "lines", []string{path}, importers.Options{Source: "chat"})
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range res.Utterances {
		fmt.Printf("%s %s turn %d %s: %s\n", u.Source, u.ConversationID, u.Turn, u.Speaker, u.Text)
	}
	// Output:
	// chat c1 turn 0 Ada: Shall we begin?
	// chat c1 turn 1 Ben: Indeed we shall.
	// chat c2 turn 0 Ada: Once more then.
}

// Import a script that has no scene marks (one conversation per file)
// cut into windows of lines as pseudo-scenes, so the pair builder finds
// several conversations per speaker: the scene_lines setting (CLI:
// import --scene-lines N). The rule comes back in words.
func ExampleImport_sceneLines() {
	dir, err := os.MkdirTemp("", "import-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "film.csv")
	table := "speaker,text\n" +
		"LUKE,Where are we going?\n" +
		"HAN,Somewhere safe.\n" +
		"LUKE,How far?\n" +
		"LEIA,Far enough.\n" +
		"HAN,Hold on.\n"
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		log.Fatal(err)
	}
	res, err := importers.Import(context.Background(), "lines", []string{path},
		importers.Options{Params: map[string]string{"scene_lines": "2"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range res.Utterances {
		fmt.Printf("%s turn %d %s: %s\n", u.ConversationID, u.Turn, u.Speaker, u.Text)
	}
	fmt.Println(res.Segmentation.SceneLines, "lines a window")
	// Output:
	// film#w1 turn 0 Luke: Where are we going?
	// film#w1 turn 1 Han: Somewhere safe.
	// film#w2 turn 0 Luke: How far?
	// film#w2 turn 1 Leia: Far enough.
	// film#w3 turn 0 Han: Hold on.
	// 2 lines a window
}
