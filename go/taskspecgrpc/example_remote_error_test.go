package taskspecgrpc_test

import (
	"context"
	"errors"
	"fmt"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	"github.com/taskspec/taskspec/go/taskspecgrpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func ExampleRemoteError_Error() {
	err := &taskspecgrpc.RemoteError{
		Language: taskspecv1.Language_LANGUAGE_PYTHON,
		Code:     codes.NotFound,
		Message:  `no template "impl-pure-fn"`,
	}
	fmt.Println(err.Error())
	// Output:
	// taskspec: remote generator for language "python": NotFound: no template "impl-pure-fn"
}

// A generator that returns a *RemoteError, as a proxy for another server
// does, passes its status on to its own callers.
func ExampleRemoteError_GRPCStatus() {
	var err error = &taskspecgrpc.RemoteError{
		Language:   taskspecv1.Language_LANGUAGE_GO,
		Code:       codes.InvalidArgument,
		Message:    "invalid language",
		Violations: []taskspec.Violation{{FieldPath: "language", Code: "TS103", Message: `invalid language "7"`}},
	}
	st := status.Convert(err)
	fmt.Println(st.Code(), st.Message(), len(st.Details()))
	// Output:
	// InvalidArgument invalid language 1
}

func ExampleRemoteError_Unwrap() {
	timedOut := &taskspecgrpc.RemoteError{Code: codes.DeadlineExceeded, Message: "context deadline exceeded"}
	fmt.Println(errors.Is(timedOut, context.DeadlineExceeded))

	refused := &taskspecgrpc.RemoteError{
		Code:       codes.FailedPrecondition,
		Message:    "the generator returned an invalid task spec",
		Violations: []taskspec.Violation{{FieldPath: "task_id", Code: "TS101", Message: "task_id is required"}},
	}
	var ve *taskspec.ValidationError
	fmt.Println(errors.As(refused, &ve), ve.Violations[0].FieldPath)
	// Output:
	// true
	// true task_id
}
