//go:build !linux

package engine

import "net"

// RawTCP is the connection as it is: raw reads and writes are Linux's (rawconn_linux.go).
func RawTCP(c net.Conn) net.Conn { return c }
