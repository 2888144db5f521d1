package kernel

// Mode says in one line whether this notebook runs in quick mode or the
// full run, so that its outputs say which they show: quick mode
// (ROLEPRINT_QUICK=1, what CI runs) shrinks data, rounds and training
// budgets to show that the pipeline runs, and its numbers are not the
// full run's.
func (nb *Notebook) Mode() string {
	if nb.Quick {
		return "quick mode (" + QuickEnv + "=1, what CI runs): smaller data, fewer rounds and replicates, small training budgets; these outputs show that the pipeline runs, not the full run's numbers"
	}
	return "full run (" + QuickEnv + " unset): the default configuration, printed below"
}
