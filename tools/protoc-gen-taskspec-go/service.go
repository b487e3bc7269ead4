package main

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
)

// The gRPC glue of the services the protos declare (GeneratorService) is
// written here into its own package, taskspecgrpc, in the module of that
// name, rather than beside the messages in the stubs' package: a program
// that only parses and validates imports the stubs and links no gRPC.
// It is what protoc-gen-go-grpc would write into the stubs' package, in
// the same shape (a client interface and its constructor, a server
// interface, an Unimplemented server to embed, the ServiceDesc and its
// registration), for unary methods, the only kind the contract has.
const (
	grpcImport  = libImport + "/taskspecgrpc"
	grpcPackage = protogen.GoImportPath("google.golang.org/grpc")
	codesImport = protogen.GoImportPath("google.golang.org/grpc/codes")
	statusPkg   = protogen.GoImportPath("google.golang.org/grpc/status")
	contextPkg  = protogen.GoImportPath("context")
)

// serviceGo writes the glue of every service of f into
// taskspecgrpc/<file>_grpc.pb.go, and nothing for a file with none.
func serviceGo(gen *protogen.Plugin, f *protogen.File) error {
	if len(f.Services) == 0 {
		return nil
	}
	name := f.Desc.Path()
	name = name[strings.LastIndexByte(name, '/')+1:]
	name = strings.TrimSuffix(name, ".proto") + "_grpc.pb.go"
	g := gen.NewGeneratedFile("taskspecgrpc/"+name, grpcImport)
	p := printer(g)
	p("%s", header)
	p("// source: %s", f.Desc.Path())
	p("")
	p("package taskspecgrpc")
	p("")
	for _, s := range f.Services {
		if err := serviceGlue(g, p, s); err != nil {
			return err
		}
	}
	return nil
}

func serviceGlue(g *protogen.GeneratedFile, p func(string, ...any), s *protogen.Service) error {
	svc := s.GoName
	for _, m := range s.Methods {
		if m.Desc.IsStreamingClient() || m.Desc.IsStreamingServer() {
			return fmt.Errorf("%s: streaming methods are not supported by the taskspecgrpc glue", m.Desc.FullName())
		}
	}
	ident := func(path protogen.GoImportPath, name string) string { return g.QualifiedGoIdent(path.Ident(name)) }
	ctx := ident(contextPkg, "Context")
	callOption := ident(grpcPackage, "CallOption")

	p("// The full method names of %s, as interceptors and", s.Desc.FullName())
	p("// grpc.Method report them.")
	p("const (")
	for _, m := range s.Methods {
		p("\t%s_%s_FullMethodName = %q", svc, m.GoName, fmt.Sprintf("/%s/%s", s.Desc.FullName(), m.Desc.Name()))
	}
	p(")")
	p("")

	p("// %sClient is the client API of %s.", svc, s.Desc.FullName())
	p("type %sClient interface {", svc)
	for _, m := range s.Methods {
		methodComment(p, m)
		p("\t%s(ctx %s, in *%s, opts ...%s) (*%s, error)", m.GoName, ctx,
			g.QualifiedGoIdent(m.Input.GoIdent), callOption, g.QualifiedGoIdent(m.Output.GoIdent))
	}
	p("}")
	p("")
	client := lowerFirst(svc) + "Client"
	p("type %s struct {", client)
	p("\tcc %s", ident(grpcPackage, "ClientConnInterface"))
	p("}")
	p("")
	p("// New%sClient returns the client of %s over cc.", svc, s.Desc.FullName())
	p("func New%sClient(cc %s) %sClient {", svc, ident(grpcPackage, "ClientConnInterface"), svc)
	p("\treturn &%s{cc}", client)
	p("}")
	p("")
	for _, m := range s.Methods {
		out := g.QualifiedGoIdent(m.Output.GoIdent)
		p("func (c *%s) %s(ctx %s, in *%s, opts ...%s) (*%s, error) {", client, m.GoName, ctx,
			g.QualifiedGoIdent(m.Input.GoIdent), callOption, out)
		p("\tout := new(%s)", out)
		p("\tif err := c.cc.Invoke(ctx, %s_%s_FullMethodName, in, out, opts...); err != nil {", svc, m.GoName)
		p("\t\treturn nil, err")
		p("\t}")
		p("\treturn out, nil")
		p("}")
		p("")
	}

	p("// %sServer is the server API of %s. An implementation", svc, s.Desc.FullName())
	p("// embeds Unimplemented%sServer by value, so that methods added", svc)
	p("// to the service later answer Unimplemented instead of breaking the build.")
	p("type %sServer interface {", svc)
	for _, m := range s.Methods {
		methodComment(p, m)
		p("\t%s(%s, *%s) (*%s, error)", m.GoName, ctx, g.QualifiedGoIdent(m.Input.GoIdent), g.QualifiedGoIdent(m.Output.GoIdent))
	}
	p("\tmustEmbedUnimplemented%sServer()", svc)
	p("}")
	p("")
	p("// Unimplemented%sServer answers every method with", svc)
	p("// codes.Unimplemented. Embed it by value.")
	p("type Unimplemented%sServer struct{}", svc)
	p("")
	for _, m := range s.Methods {
		p("func (Unimplemented%sServer) %s(%s, *%s) (*%s, error) {", svc, m.GoName, ctx,
			g.QualifiedGoIdent(m.Input.GoIdent), g.QualifiedGoIdent(m.Output.GoIdent))
		p("\treturn nil, %s(%s, %q)", ident(statusPkg, "Error"), ident(codesImport, "Unimplemented"),
			fmt.Sprintf("method %s not implemented", m.Desc.Name()))
		p("}")
	}
	p("func (Unimplemented%sServer) mustEmbedUnimplemented%sServer() {}", svc, svc)
	p("")
	p("// Register%sServer registers srv on s, a *grpc.Server or any", svc)
	p("// other registrar.")
	p("func Register%sServer(s %s, srv %sServer) {", svc, ident(grpcPackage, "ServiceRegistrar"), svc)
	p("\ts.RegisterService(&%s_ServiceDesc, srv)", svc)
	p("}")
	p("")
	for _, m := range s.Methods {
		in := g.QualifiedGoIdent(m.Input.GoIdent)
		p("func _%s_%s_Handler(srv any, ctx %s, dec func(any) error, interceptor %s) (any, error) {", svc, m.GoName,
			ctx, ident(grpcPackage, "UnaryServerInterceptor"))
		p("\tin := new(%s)", in)
		p("\tif err := dec(in); err != nil {")
		p("\t\treturn nil, err")
		p("\t}")
		p("\tif interceptor == nil {")
		p("\t\treturn srv.(%sServer).%s(ctx, in)", svc, m.GoName)
		p("\t}")
		p("\tinfo := &%s{Server: srv, FullMethod: %s_%s_FullMethodName}", ident(grpcPackage, "UnaryServerInfo"), svc, m.GoName)
		p("\thandler := func(ctx %s, req any) (any, error) {", ctx)
		p("\t\treturn srv.(%sServer).%s(ctx, req.(*%s))", svc, m.GoName, in)
		p("\t}")
		p("\treturn interceptor(ctx, in, info, handler)")
		p("}")
		p("")
	}
	p("// %s_ServiceDesc describes %s for grpc.ServiceRegistrar;", svc, s.Desc.FullName())
	p("// Register%sServer passes it.", svc)
	p("var %s_ServiceDesc = %s{", svc, ident(grpcPackage, "ServiceDesc"))
	p("\tServiceName: %q,", s.Desc.FullName())
	p("\tHandlerType: (*%sServer)(nil),", svc)
	p("\tMethods: []%s{", ident(grpcPackage, "MethodDesc"))
	for _, m := range s.Methods {
		p("\t\t{MethodName: %q, Handler: _%s_%s_Handler},", m.Desc.Name(), svc, m.GoName)
	}
	p("\t},")
	p("\tStreams:  []%s{},", ident(grpcPackage, "StreamDesc"))
	p("\tMetadata: %q,", s.Location.SourceFile)
	p("}")
	return nil
}

// methodComment writes a method's leading comment from the proto, if any.
func methodComment(p func(string, ...any), m *protogen.Method) {
	text := strings.TrimSuffix(m.Comments.Leading.String(), "\n")
	if text == "" {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		p("\t%s", line)
	}
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }
