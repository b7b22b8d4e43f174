package grpcc

import (
	"os"
	"testing"

	"github.com/surge-load/surge/internal/grpctest"
)

func loadEcho(t testing.TB) *Files {
	t.Helper()
	f, err := LoadProtos([]string{"echo.proto"}, nil, func(name string) ([]byte, error) {
		if name != "echo.proto" {
			return nil, os.ErrNotExist
		}
		return grpctest.Proto, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func startEcho(t testing.TB, useTLS bool) *grpctest.Server { return grpctest.Start(t, useTLS) }
