package taskspec

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	forms "github.com/taskspec/taskspec/go/internal/catalogue"
)

// Load reads, decodes and validates the spec in the file at path, in the
// format its extension names (FormatForPath, case-insensitively): .yaml
// and .yml are YAML (ParseYAML), .json proto3 JSON (ParseJSON), .binpb and
// .pb binary protobuf (ParseBinpb). The read is bounded and never blocks: the file is opened
// non-blocking and must be a regular file, so a FIFO without a writer, a
// device or a directory is an error at once rather than a hung job, and
// at most MaxDocumentBytes+1 bytes are read, so /dev/zero or a huge log costs
// a bounded read and the parser's "larger than" error. Problems reaching the
// file come first, as *fs.PathError values. A name whose extension names no
// format is then a *FormatError (code TS903) that lists the extensions;
// LoadFormat takes the format instead. A problem with the content is the
// parser's error after the path and ": " ("sidecar.yaml: taskspec: decode task spec:
// line 2, column 1: ..."), wrapping it, so that errors.As still finds the
// *DecodeError, *StrictError or *ValidationError.
func Load(path string) (*taskspecv1.TaskSpec, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	f, err := formatOfName(path)
	if err != nil {
		return nil, err
	}
	return parseNamed(path, data, f)
}

// LoadFormat is Load in format f, whatever the extension of path: for a
// file named otherwise, or read through a name such as /dev/stdin. An
// unknown f is an error, before the file is opened.
func LoadFormat(path string, f Format) (*taskspecv1.TaskSpec, error) {
	if _, err := ParseFormat(string(f)); err != nil {
		return nil, err
	}
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return parseNamed(path, data, f)
}

// LoadFS is Load for the file name in fsys (an os.DirFS, an embed.FS, a
// fstest.MapFS), in the format the extension of name names: it must be a
// regular file, at most MaxDocumentBytes+1 bytes of it are read, and its
// errors are Load's, naming name. The entry is looked at with fs.Stat
// before it is opened, so a FIFO, device or directory is refused without
// an open that could block (fsys opens as it does: only Load's own open
// is non-blocking); what was opened is checked again, in case the name was
// replaced in between.
func LoadFS(fsys fs.FS, name string) (*taskspecv1.TaskSpec, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(name, fi.Mode())
	}
	file, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := readRegular(file, name)
	if err != nil {
		return nil, err
	}
	f, err := formatOfName(name)
	if err != nil {
		return nil, err
	}
	return parseNamed(name, data, f)
}

// Read decodes and validates the TaskSpec in the YAML r yields, reading at
// most MaxDocumentBytes+1 bytes of it, so that an endless reader costs a
// bounded read and ParseYAML's "larger than" error, as from Load. Its
// errors are r's and ParseYAML's, unchanged. A reader has no name to tell
// its format by: ReadFormat reads the others.
func Read(r io.Reader) (*taskspecv1.TaskSpec, error) {
	return ReadFormat(r, YAML)
}

// ReadFormat is Read in format f: Parse of at most MaxDocumentBytes+1
// bytes of r. An unknown f is an error, before r is read.
func ReadFormat(r io.Reader, f Format) (*taskspecv1.TaskSpec, error) {
	if _, err := ParseFormat(string(f)); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxDocumentBytes+1))
	if err != nil {
		return nil, err
	}
	return Parse(data, f)
}

// parseNamed is Parse, its error after name.
func parseNamed(name string, data []byte, f Format) (*taskspecv1.TaskSpec, error) {
	spec, err := Parse(data, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return spec, nil
}

// A FormatError reports a file name whose extension names no format, from
// Load, LoadFS and Save, which read and write a file in the format its
// extension names (see FormatForPath); LoadFormat and SaveFormat take the
// format instead. Violation is the problem, code TS903, its hint the
// extensions there are, as the Python library's load and save raise it.
// Save writes nothing; Load and LoadFS report it once the file has been
// reached, so that a file that cannot be reached is reported as such.
type FormatError struct {
	Path      string
	Violation Violation
}

// Error returns the path, ": " and the problem, its hint after "; ":
// x.txt: eval: cannot tell the format of "x.txt" from its extension;
// expected one of: .yaml, .yml, .json, .binpb, .pb.
func (e *FormatError) Error() string {
	text := e.Violation.String()
	if text == "" {
		text = forms.ReasonUnsupportedFormatNoExtension.Render(forms.Args{"name": "the file"})
	}
	if e.Path == "" {
		return errPrefix + text
	}
	return e.Path + ": " + errPrefix + text
}

// formatOfName is the format the extension of name names, or a
// *FormatError.
func formatOfName(name string) (Format, error) {
	if f, ok := FormatForPath(name); ok {
		return f, nil
	}
	names := make([]string, len(extensions))
	for i, e := range extensions {
		names[i] = e.ext
	}
	return "", &FormatError{Path: name, Violation: Violation{
		Message: forms.MsgUnsupportedFormatPlain.Render(forms.Args{"reason": forms.ReasonUnsupportedFormatNoExtension.Render(
			forms.Args{"name": strconv.Quote(filepath.Base(name))})}),
		Hint:     forms.HintUnsupportedFormatOneOf.Render(forms.Args{"extensions": strings.Join(names, ", ")}),
		Code:     CodeUnsupportedFormat,
		Severity: SeverityError,
	}}
}

func readFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readRegular(f, path)
}

// readRegular reads at most MaxDocumentBytes+1 bytes of f, the file name,
// which must be a regular file; a read error that names no file (an
// fs.FS's own) is made an *fs.PathError naming name.
func readRegular(f fs.File, name string) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(name, fi.Mode())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxDocumentBytes+1))
	if err != nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			err = &fs.PathError{Op: "read", Path: name, Err: err}
		}
		return nil, err
	}
	return data, nil
}

// ErrNotRegular is wrapped by the error Load returns for a path that is not
// a regular file (a directory, FIFO, device or socket).
var ErrNotRegular = errors.New("not a regular file")

func notRegular(path string, mode fs.FileMode) error {
	kind := "of another kind"
	switch {
	case mode.IsDir():
		kind = "a directory"
	case mode&fs.ModeNamedPipe != 0:
		kind = "a FIFO"
	case mode&fs.ModeCharDevice != 0:
		kind = "a character device"
	case mode&fs.ModeDevice != 0:
		kind = "a block device"
	case mode&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind)}
}

// Save validates spec and writes it to path atomically, in the format the
// extension of path names (see Load): canonical YAML (MarshalYAML), JSON
// (MarshalJSON) or binary protobuf (MarshalBinpb). A name whose extension
// names no format is a *FormatError and nothing is written; SaveFormat
// takes the format instead. Readers see the old bytes or the new,
// never a mix, and on any failure the old file is left as it was and no
// temporary file remains. Nothing is written that Load would refuse, in
// either language: the spec is validated first, and output over a reader's
// limits (YAML of more than MaxNodes nodes, counted on the spec before
// anything is written, or more than MaxDocumentBytes in the format written)
// is refused with a *WriteError naming the field that takes most of it.
//
// A symbolic link is written through: the file it names gets the bytes and
// the link stays a link. The file keeps its mode, and its owner and group
// where this process may set them; a new file gets 0666 less the umask.
//
// The bytes go to a temporary file in the target's directory, named
// ".<name>.<16 hex digits>.tmp" (hidden, and not ending in .yaml, so no
// walk mistakes it for a sidecar), which is flushed and fsynced, renamed
// over the target, and the directory fsynced so the rename survives a
// crash. The writer holds an exclusive flock on its temporary file until
// the rename, so the next write to the same target can tell a killed
// writer's leftover (lock free) from a live writer's file (locked) and
// removes only the former.
func Save(path string, spec *taskspecv1.TaskSpec) error {
	f, err := formatOfName(path)
	if err != nil {
		return err
	}
	return save(path, spec, f)
}

// SaveFormat is Save in format f, whatever the extension of path. An
// unknown f is an error, and nothing is written.
func SaveFormat(path string, spec *taskspecv1.TaskSpec, f Format) error {
	if _, err := ParseFormat(string(f)); err != nil {
		return err
	}
	return save(path, spec, f)
}

func save(path string, spec *taskspecv1.TaskSpec, f Format) error {
	if err := Validate(spec); err != nil {
		return err
	}
	if f != YAML {
		// Validate refused YAML over the size limit; in the other formats
		// only the size can be over a reader's limits, as in Convert.
		data, err := Marshal(spec, f)
		if err != nil {
			return err
		}
		if err := checkSizeIn(spec, data, f); err != nil {
			return err
		}
		return writeAtomic(path, data)
	}
	m, err := toMirror(spec)
	if err != nil {
		return err
	}
	if err := checkWritable(m); err != nil {
		return err
	}
	data, err := MarshalYAML(spec)
	if err != nil {
		return err
	}
	if err := checkSize(spec, data); err != nil {
		return err
	}
	return writeAtomic(path, data)
}

// writeTarget resolves every symbolic link in path, as realpath does, but
// also when the final file does not exist yet (a dangling link names the
// file to create). Renaming over the link itself would replace the link
// with a regular file and leave the file it names unchanged.
func writeTarget(path string) (string, error) {
	p := path
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		if hops == 40 {
			return "", &fs.PathError{Op: "save", Path: path, Err: errors.New("too many levels of symbolic links")}
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(p)), nil
}

func writeAtomic(path string, data []byte) error {
	target, err := writeTarget(path)
	if err != nil {
		return err
	}
	dir, name := filepath.Split(target)
	old, err := os.Stat(target)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	removeStaleTemps(dir, name)
	f, err := createLockedTemp(dir, name)
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = func() error {
		defer f.Close() // also releases the lock, after the rename
		if old != nil {
			if err := keepOwnerAndMode(f, old); err != nil {
				return err
			}
		}
		if _, err := f.Write(data); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		return os.Rename(tmp, target)
	}()
	if err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(dir)
	return nil
}

// tempName matches a writer's temporary file; group 1 is the target's name.
var tempName = regexp.MustCompile(`\A\.(.+)\.[0-9a-f]{16}\.tmp\z`)

func newTempName(name string) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "." + name + "." + hex.EncodeToString(b[:]) + ".tmp", nil
}

// createLockedTemp creates a new temporary file for name in dir, opened
// O_EXCL and exclusively locked. Between creating and locking it, another
// writer's clean-up may take the still-free lock and remove the file; the
// inode check catches that, and a fresh name is tried.
func createLockedTemp(dir, name string) (*os.File, error) {
	for {
		base, err := newTempName(name)
		if err != nil {
			return nil, err
		}
		tmp := filepath.Join(dir, base)
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err != nil {
			return nil, err
		}
		if err := lockFile(f, true); err != nil {
			f.Close()
			os.Remove(tmp)
			return nil, err
		}
		if sameFile(tmp, f) {
			return f, nil
		}
		f.Close()
	}
}

func sameFile(path string, f *os.File) bool {
	a, err1 := os.Stat(path)
	b, err2 := f.Stat()
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// removeStaleTemps removes the temporary files of name left in dir by
// writers that are gone: their lock can be taken without waiting. A locked
// file belongs to a live writer and is left alone.
func removeStaleTemps(dir, name string) {
	if !canLock {
		return // without flock a live writer's file cannot be told apart
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := tempName.FindStringSubmatch(e.Name())
		if m == nil || m[1] != name || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		if lockFile(f, false) == nil && sameFile(p, f) {
			os.Remove(p)
		}
		f.Close()
	}
}

// keepOwnerAndMode gives the new file the old one's owner and group where
// permitted, then its mode. The owner goes first because changing it may
// clear set-id bits, which the mode then restores; only root may give a
// file away, so a refusal keeps the writer as owner rather than failing.
func keepOwnerAndMode(f *os.File, old fs.FileInfo) error {
	if err := chownLike(f, old); err != nil && !errors.Is(err, fs.ErrPermission) {
		return err
	}
	return f.Chmod(old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
}

func syncDir(dir string) {
	d, err := os.Open(strings.TrimSuffix(dir, string(filepath.Separator)) + string(filepath.Separator))
	if err != nil {
		return
	}
	_ = d.Sync() // some file systems refuse it; the rename is done either way
	d.Close()
}
