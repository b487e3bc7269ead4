package taskspec

// MaxDepth and MaxNodes bound a document's nesting and node count.
const (
	MaxDepth = 64
	MaxNodes = 100000
)
