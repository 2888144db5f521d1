package backend

import "strings"

// Options of the go backend that choose how a graph's ops are scheduled.
const (
	// GoOpsSequential runs the ops of a graph one after another (each op
	// may still split its own work, a matrix product say, over the worker
	// pool). It is what "go" means in RolePrint.
	GoOpsSequential = "ops_sequential"
	// GoOpsParallel runs independent ops of a graph at the same time
	// (GoMLX's parallel scheduler). It can deadlock: see GoConfig.
	GoOpsParallel = "ops_parallel"
	// GoOpsDynamic is GoMLX's own default: parallel while a single graph
	// executes, sequential when several do. RolePrint accepts it to ask
	// for that behaviour explicitly; it is not passed to GoMLX. It
	// deadlocks like GoOpsParallel.
	GoOpsDynamic = "ops_dynamic"
)

// GoConfig returns the configuration string handed to GoMLX's go backend
// for the options of a "go" backend name (what follows "go,"): the same
// options with GoOpsSequential added when they choose no scheduler.
// "ops_parallel" keeps GoMLX's parallel scheduler, "ops_dynamic" its
// default one; other options (parallelism=N, dependency_order, ...) pass
// through.
//
// Why sequential by default: GoMLX's parallel scheduler (compute
// v0.0.0-20260716164435) runs each ready op as a task of the backend's
// worker pool (2×GOMAXPROCS slots), and a matrix product (DotGeneral),
// from inside its task, waits for free slots of the same pool to split
// its work (workerspool.Pool.Saturate). When every slot holds such a
// product, all of them wait for each other and the execution never ends.
// Measured on 2 cores (load 4-5), three vector-plus-gradient passes of
// USE-Lite per run: GoMLX's default scheduler hung in 5 of 56 runs and
// ops_parallel in 1 of 35 (goroutine dump: the four pool tasks in
// Pool.Saturate under DotGeneral, the scheduler in Pool.WaitToStart, no
// CPU used); ops_sequential never hung (0 of 75) and was as fast (1.98 s
// a run, process start included, against 1.91 s and 2.05 s for the runs
// that finished). On 2 cores
// op parallelism has little to gain: matrix products already use both.
func GoConfig(opts string) string {
	var kept []string
	scheduler := false
	for _, o := range strings.Split(strings.TrimPrefix(opts, ","), ",") {
		switch key, _, _ := strings.Cut(strings.TrimSpace(o), "="); key {
		case "":
			continue
		case GoOpsDynamic:
			scheduler = true
			continue // GoMLX's default: nothing to pass
		case GoOpsSequential, GoOpsParallel:
			scheduler = true
		}
		kept = append(kept, strings.TrimSpace(o))
	}
	if !scheduler {
		kept = append(kept, GoOpsSequential)
	}
	return strings.Join(kept, ",")
}
