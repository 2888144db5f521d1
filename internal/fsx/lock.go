package fsx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Lock takes the lock file at path for this process, so that two runs
// writing the same outputs (and paying for the same requests) cannot
// overlap. The file is created exclusively and holds the process id. An
// existing lock of a running process is an error naming its pid; one of
// a process that is gone (a killed run) is taken over, with a note to
// logf; a file at path that holds no pid is refused. release removes the
// lock.
//
// Two runs taking over the same stale lock at the same instant can both
// succeed; every other overlap is refused.
func Lock(path string, logf func(format string, args ...any)) (release func(), err error) {
	for try := 0; try < 2; try++ {
		err := createLock(path)
		if err == nil {
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 0 {
			return nil, fmt.Errorf("lock %s exists and holds no process id: if no other run uses these outputs, delete it", path)
		}
		if processRunning(pid) {
			return nil, fmt.Errorf("another run (pid %d) holds the lock %s and writes the same outputs: wait for it to finish (if pid %d is not that run, delete the lock)", pid, path, pid)
		}
		if logf != nil {
			logf("taking over the stale lock %s of pid %d, which is no longer running", path, pid)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
	}
	return nil, fmt.Errorf("lock %s: taken by another run meanwhile", path)
}

// createLock writes this process's pid to a temporary file and links it
// to path: the link fails when path exists, so the lock appears whole
// or not at all.
func createLock(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	_, err = fmt.Fprintf(tmp, "%d\n", os.Getpid())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) && errors.Is(le.Err, fs.ErrExist) {
			return fs.ErrExist
		}
		return fmt.Errorf("lock %s: %w", path, err)
	}
	return nil
}

// processRunning reports whether a process with pid exists (signal 0
// checks without sending anything; EPERM means it exists under another
// user).
func processRunning(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
