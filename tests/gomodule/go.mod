module github.com/taskspec/taskspec/tests/gomodule

go 1.26.0

require golang.org/x/mod v0.41.0
