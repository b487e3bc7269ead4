package taskspec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	forms "github.com/taskspec/taskspec/go/internal/catalogue"
)

// An ArtifactPathError reports a solution artifact path that would lead
// out of the workspace it is joined to.
type ArtifactPathError struct {
	Path   string // the artifact path as the spec holds it
	Reason string // why it is refused, as ArtifactPathProblem says
}

func (e *ArtifactPathError) Error() string {
	return errPrefix + forms.MsgArtifactPathNotAllowed.Render(forms.Args{"value": strconv.Quote(e.Path), "reason": e.Reason})
}

// ArtifactPathProblem returns why path is not a local artifact path, or ""
// when it is. An artifact path is meant to be relative to the task's
// workspace, but a spec may hold any string there ("../../etc/passwd",
// "/etc/passwd" and "a\x00b" are valid specs, as they were for the eval
// package), so code that opens an artifact must check it first; [Check]
// warns of such a path (TS301). A path is local when it is not empty, holds
// no NUL byte, is not absolute on any platform ("/x", `C:\x`,
// `\\host\share`) and never climbs above its start with "..", with "\"
// read as a separator too, so that a path means the same on every platform.
func ArtifactPathProblem(path string) string {
	if path == "" {
		return forms.ReasonArtifactPathEmpty.Render(nil)
	}
	if strings.IndexByte(path, 0) >= 0 {
		return forms.ReasonArtifactPathNul.Render(nil)
	}
	parts := strings.ReplaceAll(path, `\`, "/")
	if strings.HasPrefix(parts, "/") || hasDrive(parts) {
		return forms.ReasonArtifactPathAbsolute.Render(nil)
	}
	depth := 0
	for _, part := range strings.Split(parts, "/") {
		switch part {
		case "", ".":
		case "..":
			depth--
			if depth < 0 {
				return forms.ReasonArtifactPathClimbs.Render(nil)
			}
		default:
			depth++
		}
	}
	return ""
}

func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}

// IsLocalArtifactPath reports whether path stays inside any directory it
// is joined to, in the spirit of filepath.IsLocal but the same on every
// platform. It is lexical: symbolic links are ArtifactPath's to check.
func IsLocalArtifactPath(path string) bool { return ArtifactPathProblem(path) == "" }

// ArtifactPath joins path to workspace, refusing with an
// *ArtifactPathError a path that would lead out of it: one that is not
// local (see ArtifactPathProblem), or one whose real location, with the
// symbolic links of both resolved, is outside the workspace's, since a
// link inside the workspace can point anywhere. The result is the lexical
// join, cleaned; the file need not exist. For the strongest guarantee
// against links that change after the check, open the file through
// os.Root.
func ArtifactPath(workspace, path string) (string, error) {
	problem := ArtifactPathProblem(path)
	if problem == "" {
		joined := filepath.Join(workspace, filepath.FromSlash(strings.ReplaceAll(path, `\`, "/")))
		root, err := realPath(workspace)
		if err != nil {
			return "", err
		}
		real, err := realPath(joined)
		if err != nil {
			return "", err
		}
		rel, err := filepath.Rel(root, real)
		if err == nil && filepath.IsLocal(rel) || rel == "." {
			return joined, nil
		}
		problem = forms.ReasonArtifactPathSymlink.Render(nil)
	}
	return "", &ArtifactPathError{Path: path, Reason: problem}
}

// realPath is path absolute with every symbolic link resolved, as far as
// the path exists, like Python's os.path.realpath: the missing rest is
// appended as written.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rest := ""
	for dir := abs; ; {
		resolved, err := filepath.EvalSymlinks(dir)
		if err == nil {
			return filepath.Join(resolved, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}
