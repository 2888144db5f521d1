// Command roleprint is RolePrint's command-line interface:
//
//	roleprint SUBCOMMAND [flags] FILES...
//
// Flags come first, input files are positional. Every subcommand that
// reports figures takes --json and then prints exactly one JSON object on
// stdout with stable snake_case keys; progress and notes go to stderr.
// `roleprint help` lists the subcommands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the process exit code: 0 on
// success, 2 on a usage error, 1 on any other error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printHelp(stderr)
		return 2
	}
	name, rest := args[0], args[1:]
	if name == "help" || name == "-h" || name == "--help" {
		if len(rest) > 0 && rest[0] != "help" {
			c := lookup(rest[0])
			if c == nil {
				fmt.Fprintf(stderr, "roleprint help: unknown subcommand %q\n\n", rest[0])
				printHelp(stderr)
				return 2
			}
			fmt.Fprintf(stdout, "%s — %s\n\n", c.Name, c.Summary)
			_ = c.Run(ctx, &env{stdout: stdout, stderr: stderr}, []string{"-h"})
			return 0
		}
		printHelp(stdout)
		return 0
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "roleprint: unknown subcommand %q\n\n", name)
		printHelp(stderr)
		return 2
	}
	err := c.Run(ctx, &env{stdout: stdout, stderr: stderr}, rest)
	releaseInputs()
	if err != nil {
		if isUsage(err) {
			fmt.Fprintf(stderr, "roleprint %s: %v\n", name, err)
			return 2
		}
		fmt.Fprintf(stderr, "roleprint %s: %v\n", name, err)
		return 1
	}
	return 0
}
