module github.com/taskspec/taskspec/tests/conformance/go

go 1.24

require (
	github.com/taskspec/taskspec/gen/go v0.0.0-00010101000000-000000000000
	go.yaml.in/yaml/v3 v3.0.4
	google.golang.org/protobuf v1.36.12
)

replace github.com/taskspec/taskspec/gen/go => ../../../gen/go
