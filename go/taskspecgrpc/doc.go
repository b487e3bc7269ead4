// Package taskspecgrpc is the GeneratorService of
// proto/taskspec/v1/generator_service.proto for Go: a server over a
// [taskspec.Registry] ([NewGeneratorServer]), a [taskspec.Generator] whose
// work is done by such a server in any language ([NewRemoteGenerator]),
// the standard health service ([RegisterHealth]), and the gRPC glue the
// protos declare (GeneratorServiceClient, RegisterGeneratorServiceServer),
// generated into this package by the repository's protoc plugin.
//
// It is a module of its own, github.com/taskspec/taskspec/go/taskspecgrpc,
// so that a program that only reads and writes specs, with package
// taskspec, links no gRPC. Release versions match the core library's: a
// service requires both at the same version.
//
// A server:
//
//	reg := taskspec.NewRegistry()
//	if err := reg.Register(myGoGenerator); err != nil {
//		return err
//	}
//	srv := grpc.NewServer(taskspecgrpc.GRPCServerOptions()...)
//	taskspecgrpc.RegisterGeneratorServiceServer(srv, taskspecgrpc.NewGeneratorServer(reg))
//	health := taskspecgrpc.RegisterHealth(srv)
//
// A client:
//
//	gen := taskspecgrpc.NewRemoteGenerator(conn, taskspecv1.Language_LANGUAGE_PYTHON)
//	spec, err := gen.Generate(ctx, &taskspecv1.GenerateOptions{})
//
// A failed call is a [*RemoteError]: errors.Is context.DeadlineExceeded or
// context.Canceled when the call ended so, status.Code(err) gives its gRPC
// code, and a spec refused for its problems unwraps to a
// *taskspec.ValidationError holding them.
package taskspecgrpc
