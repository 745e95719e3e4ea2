//go:build ignore

// Command freeport prints a free TCP port on 127.0.0.1 (.ci/redis.sh uses
// it when python3 is missing).
package main

import (
	"fmt"
	"net"
)

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
}
