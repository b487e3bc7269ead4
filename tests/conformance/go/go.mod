module github.com/taskspec/taskspec/tests/conformance/go

go 1.26.0

require (
	github.com/taskspec/taskspec/gen/go v1.0.0
	github.com/taskspec/taskspec/go v1.0.0
	go.yaml.in/yaml/v3 v3.0.4
	google.golang.org/protobuf v1.36.12
)
