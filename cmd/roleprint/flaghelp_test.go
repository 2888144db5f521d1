package main

import (
	"sort"
	"strings"
	"testing"
)

// Every subcommand's flag help names each flag's value by its type: a
// `backquoted` word in a usage string becomes the value's name in Go's
// flag help ("-transfer roleprint eval" for a boolean flag). Commands
// with subcommands of their own (speech, persona) print no flags here;
// TestPersonaCommandsFlagHelp covers theirs.
func TestEveryCommandsFlagHelp(t *testing.T) {
	types := map[string]bool{"string": true, "int": true, "uint": true, "float": true, "duration": true, "value": true}
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	checked := 0
	for _, n := range names {
		_, _, stderr := runPersonaCLI(t, n, "--help")
		if !strings.Contains(stderr, "flags:") {
			continue
		}
		checked++
		for _, line := range strings.Split(stderr, "\n") {
			f := strings.Fields(line)
			if strings.HasPrefix(line, "  -") && len(f) > 1 && !types[f[1]] {
				t.Errorf("%s: flag help line %q names its value %q", n, line, strings.Join(f[1:], " "))
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d of %d subcommands printed flag help", checked, len(names))
	}
}
