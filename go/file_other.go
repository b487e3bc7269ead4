//go:build !unix

package taskspec

import (
	"io/fs"
	"os"
)

const openNonBlock = 0

// Without flock a live writer's temporary file cannot be told from a dead
// one's, so none are removed; the random names keep writers apart.
const canLock = false

func lockFile(*os.File, bool) error { return nil }

func chownLike(*os.File, fs.FileInfo) error { return nil }
