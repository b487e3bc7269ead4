module github.com/taskspec/taskspec/tests/conformance/grpc

go 1.26.0

replace (
	github.com/taskspec/taskspec/gen/go => ../../../gen/go
	github.com/taskspec/taskspec/go => ../../../go
)

require (
	github.com/taskspec/taskspec/gen/go v0.0.0-00010101000000-000000000000
	github.com/taskspec/taskspec/go v0.0.0-00010101000000-000000000000
	google.golang.org/grpc v1.85.0
)

require (
	go.yaml.in/yaml/v3 v3.0.4 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260817212433-ac3dfec99bb1 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
