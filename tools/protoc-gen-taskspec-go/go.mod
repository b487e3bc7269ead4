module github.com/taskspec/taskspec/tools/protoc-gen-taskspec-go

go 1.23

require (
	github.com/taskspec/taskspec/gen/go v1.0.0
	google.golang.org/protobuf v1.36.12
)
