//go:build unix

package taskspec_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"google.golang.org/protobuf/proto"

	taskspec "github.com/taskspec/taskspec/go"
)

func TestSaveAndLoad(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.yaml")
	link := filepath.Join(dir, "link.yaml")
	if err := os.WriteFile(real, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.yaml", link); err != nil {
		t.Fatal(err)
	}
	// A killed writer's leftover is removed; a live writer's is kept.
	stale := filepath.Join(dir, ".real.yaml.0123456789abcdef.tmp")
	live := filepath.Join(dir, ".real.yaml.fedcba9876543210.tmp")
	other := filepath.Join(dir, ".other.yaml.0123456789abcdef.tmp")
	for _, p := range []string{stale, live, other} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	lf, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}

	spec := validSpec()
	if err := taskspec.Save(link, spec); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("link is no longer a link: %v %v", fi, err)
	}
	if fi, err := os.Stat(real); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode not kept: %v %v", fi, err)
	}
	for p, want := range map[string]bool{stale: false, live: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
	got, err := taskspec.Load(real)
	if err != nil || !proto.Equal(got, spec) {
		t.Errorf("Load = %v, %v", got, err)
	}

	bad := validSpec()
	bad.Prompt = ""
	if err := taskspec.Save(real, bad); err == nil || err.Error() != "taskspec: prompt is required" {
		t.Errorf("Save(invalid) = %v", err)
	}
	if got, _ := taskspec.Load(real); !proto.Equal(got, spec) {
		t.Error("a refused Save changed the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 { // real, link, the live and the other writer's files
		t.Errorf("directory holds %d entries: %v", len(entries), entries)
	}

	fresh := filepath.Join(dir, "new.yaml")
	old := syscall.Umask(0o027)
	err = taskspec.Save(fresh, spec)
	syscall.Umask(old)
	if fi, statErr := os.Stat(fresh); err != nil || statErr != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("new file: %v %v %v", fi, err, statErr)
	}
}

func TestLoadRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{fifo: "a FIFO", dir: "a directory", "/dev/null": "a character device"} {
		_, err := taskspec.Load(path)
		if !errors.Is(err, taskspec.ErrNotRegular) || !strings.Contains(err.Error(), kind) {
			t.Errorf("Load(%s) = %v", path, err)
		}
	}
	if _, err := taskspec.Load(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing) = %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte(strings.Repeat("#", taskspec.MaxDocumentBytes+10)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := taskspec.Load(big)
	if err == nil || err.Error() != fmt.Sprintf("%s: taskspec: decode task spec: document is larger than %d bytes", big, taskspec.MaxDocumentBytes) {
		t.Errorf("Load(big) = %v", err)
	}
}

// TestLoadFSRefusesAFIFOBeforeOpeningIt: os.DirFS opens a file blocking,
// so an open of a FIFO without a writer would wait for one forever;
// LoadFS looks at the entry first. A directory with a sidecar's name is
// refused the same way.
func TestLoadFSRefusesAFIFOBeforeOpeningIt(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "spec.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	for name, kind := range map[string]string{"spec.yaml": "a FIFO", "d.json": "a directory"} {
		_, err := taskspec.LoadFS(fsys, name)
		var pe *fs.PathError
		if !errors.Is(err, taskspec.ErrNotRegular) || !strings.Contains(err.Error(), kind) ||
			!errors.As(err, &pe) || pe.Path != name {
			t.Errorf("LoadFS(%s) = %v", name, err)
		}
	}
	if _, err := taskspec.LoadFS(fsys, "missing.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadFS(missing) = %v", err)
	}
}
