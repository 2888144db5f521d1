package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// command is one subcommand. Each lives in its own cmd_*.go file and adds
// itself with register in an init function.
type command struct {
	// Name is the first word on the command line ("import", "speech").
	Name string
	// Summary is the one line `roleprint help` shows.
	Summary string
	// Run executes the subcommand with the arguments after its name.
	Run func(ctx context.Context, e *env, args []string) error
}

var commands = map[string]*command{}

// register adds a subcommand; a duplicate name is a programming error.
func register(c *command) {
	if _, dup := commands[c.Name]; dup {
		panic("roleprint: subcommand registered twice: " + c.Name)
	}
	commands[c.Name] = c
}

func lookup(name string) *command { return commands[name] }

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "usage: roleprint SUBCOMMAND [flags] FILES...")
	fmt.Fprintln(w, "\nsubcommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "  %-12s %s\n", "help", "list subcommands, or `help NAME` for one")
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].Summary)
	}
	fmt.Fprintln(w, "\nFlags come before input files. --json prints one JSON object on stdout.")
}

// env is what a subcommand writes to.
type env struct {
	stdout, stderr io.Writer
}

// Stdout is where results go (one JSON object with --json).
func (e *env) Stdout() io.Writer { return e.stdout }

// Stderr is where progress and notes go.
func (e *env) Stderr() io.Writer { return e.stderr }

// Logf writes a note to stderr.
func (e *env) Logf(format string, args ...any) {
	fmt.Fprintf(e.stderr, format+"\n", args...)
}

// JSON writes v as exactly one indented JSON object on stdout.
func (e *env) JSON(v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// usageError marks errors that are the user's command line, not the data.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

// usagef returns a usage error (exit code 2).
func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

func isUsage(err error) bool {
	var u usageError
	return errors.As(err, &u) || errors.Is(err, flag.ErrHelp)
}

// newFlags returns a flag set for subcommand name whose usage text goes to
// e's stderr and lists the positional arguments described by operands.
func newFlags(e *env, name, operands string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: roleprint %s [flags] %s\n\nflags:\n", name, operands)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, insisting that flags come before files: a flag
// found among the positional arguments is a usage error naming it. It
// then runs the output guard (guardFlags): no output may replace an
// input.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	for _, a := range fs.Args() {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			return usagef("flag %s after the input files: flags come first (roleprint %s [flags] FILES...)", a, fs.Name())
		}
	}
	return guardFlags(fs)
}
