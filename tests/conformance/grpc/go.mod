module github.com/taskspec/taskspec/tests/conformance/grpc

go 1.26.0

require (
	github.com/taskspec/taskspec/gen/go v1.0.0
	github.com/taskspec/taskspec/go v1.0.0
	github.com/taskspec/taskspec/go/taskspecgrpc v1.0.0
	google.golang.org/grpc v1.63.0
)

require (
	go.yaml.in/yaml/v3 v3.0.4 // indirect
	golang.org/x/net v0.21.0 // indirect
	golang.org/x/sys v0.17.0 // indirect
	golang.org/x/text v0.14.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20240227224415-6ceb2ff114de // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
