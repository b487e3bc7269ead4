//go:build unix

package taskspec

import (
	"io/fs"
	"os"
	"syscall"
)

// openNonBlock keeps open(2) of a FIFO without a writer from blocking.
const openNonBlock = syscall.O_NONBLOCK

const canLock = true

// lockFile takes an exclusive flock on f, waiting for it when wait is true
// and failing at once otherwise.
func lockFile(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

func chownLike(f *os.File, old fs.FileInfo) error {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	cur, err := f.Stat()
	if err != nil {
		return err
	}
	if c, ok := cur.Sys().(*syscall.Stat_t); ok && c.Uid == st.Uid && c.Gid == st.Gid {
		return nil
	}
	return f.Chown(int(st.Uid), int(st.Gid))
}
