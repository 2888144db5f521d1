package roleplay_test

import (
	"context"
	"fmt"
	"log"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // tfidf
	"github.com/roleprint/roleprint/sv/roleplay"
)

// Score role-playing agents against the real speakers: an agent that
// speaks each role's own lines ("echo") simulates the roles better than
// one that gives each role another role's lines ("swap"), and the Real
// row (held-out real lines) is the reference.
func ExampleScore() {
	real, err := corpus.Default()
	if err != nil {
		log.Fatal(err)
	}
	roles := []string{"Hamlet", "Falstaff", "Othello", "Iago"}
	byRole := map[string][]data.Utterance{}
	for _, u := range real {
		byRole[u.Speaker] = append(byRole[u.Speaker], u)
	}
	var generated []data.Utterance
	agent := func(model string, lines func(i int) []data.Utterance) {
		for i, role := range roles {
			for _, u := range lines(i) {
				u.AgentModel, u.Role, u.Speaker = model, role, role
				u.ConversationID = model + "/" + u.ConversationID
				generated = append(generated, u)
			}
		}
	}
	agent("echo", func(i int) []data.Utterance { return byRole[roles[i]] })
	agent("swap", func(i int) []data.Utterance { return byRole[roles[(i+1)%len(roles)]] })

	enc, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	cfg := roleplay.DefaultConfig()
	cfg.Bootstrap = 0 // no confidence intervals: faster
	rep, err := roleplay.Score(context.Background(), enc, real, generated, cfg, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range rep.Models {
		fmt.Printf("%s: %d roles\n", m.Model, m.Roles)
	}
	fmt.Println("echo simulates better than swap:", rep.Model("echo").Simulation > rep.Model("swap").Simulation)
	// Output:
	// Real: 4 roles
	// echo: 4 roles
	// swap: 4 roles
	// echo simulates better than swap: true
}
