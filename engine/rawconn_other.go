//go:build !linux

package engine

import "net"

// rawTCP is the connection as it is: raw reads and writes are Linux's (rawconn_linux.go).
func rawTCP(c net.Conn) net.Conn { return c }
