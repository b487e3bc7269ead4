module github.com/taskspec/taskspec/go/taskspecgrpc

go 1.23

require (
	github.com/taskspec/taskspec/gen/go v1.0.0
	github.com/taskspec/taskspec/go v1.0.0
	google.golang.org/grpc v1.63.0
	google.golang.org/protobuf v1.36.12
)

require (
	go.yaml.in/yaml/v3 v3.0.4 // indirect
	golang.org/x/net v0.21.0 // indirect
	golang.org/x/sys v0.17.0 // indirect
	golang.org/x/text v0.14.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20240227224415-6ceb2ff114de // indirect
)
