package mcp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/gomcp/sdk/mcp"
)

// A server that answers with something the client cannot read fails the
// call at once, with an error that says why. Here a stand-in for a broken
// stdio server answers initialize with malformed JSON.
func ExampleErrUnreadableResponse() {
	clientEnd, serverEnd := net.Pipe()
	go func() {
		defer serverEnd.Close()
		line, err := bufio.NewReader(serverEnd).ReadBytes('\n')
		if err != nil {
			return
		}
		msg, err := mcp.DecodeMessage(line)
		if err != nil {
			return
		}
		id, _ := msg.(*mcp.JSONRPCRequest).ID.MarshalJSON()
		fmt.Fprintf(serverEnd, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25",}}`+"\n", id)
		_, _ = bufio.NewReader(serverEnd).ReadBytes('\n') // until the client hangs up
	}()
	transport := mcp.NewIOTransport(clientEnd)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// docs:region unreadable
	client := mcp.NewClient("client", "v1", &mcp.ClientOptions{ProtocolVersion: "2025-11-25"})
	_, err := client.Connect(ctx, transport)
	if errors.Is(err, mcp.ErrUnreadableResponse) {
		fmt.Println("the server's reply could not be read")
	}
	// docs:endregion

	// Output: the server's reply could not be read
}
