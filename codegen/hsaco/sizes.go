package hsaco

// This file checks the sizes a MessagePack value states before it is
// decoded: msgpack v5.4.0 and v5.4.1 make a slice of an array's stated
// length before they read the elements (their allocation limit is never
// applied: vmihailenco/msgpack issue 401), so a note that states 2^31
// elements would take gigabytes before the decoder finds it short.

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// checkSizes returns an error when a length or count the MessagePack
// value b states does not fit in the bytes after it: every value takes
// at least one byte, so a count of values larger than the bytes left is
// a lie, as is a string, binary or extension longer than them.
func checkSizes(b []byte) error {
	i, pending := 0, 1 // the next byte; the values still to read
	for ; pending > 0; pending-- {
		if i >= len(b) {
			return errors.New("hsaco: the metadata note ends inside a MessagePack value")
		}
		c := b[i]
		i++
		var skip, items, width int // bytes of payload, nested values, bytes of the length that follows
		switch {
		case c <= 0x7f, c >= 0xe0, c == 0xc0, c == 0xc2, c == 0xc3: // fixint, nil, false, true
		case c&0xf0 == 0x80: // fixmap
			items = 2 * int(c&0x0f)
		case c&0xf0 == 0x90: // fixarray
			items = int(c & 0x0f)
		case c&0xe0 == 0xa0: // fixstr
			skip = int(c & 0x1f)
		case c == 0xcc, c == 0xd0:
			skip = 1
		case c == 0xcd, c == 0xd1:
			skip = 2
		case c == 0xca, c == 0xce, c == 0xd2:
			skip = 4
		case c == 0xcb, c == 0xcf, c == 0xd3:
			skip = 8
		case c >= 0xd4 && c <= 0xd8: // fixext 1, 2, 4, 8, 16 and its type
			skip = 1<<(c-0xd4) + 1
		case c == 0xc4, c == 0xd9, c == 0xc7: // bin8, str8, ext8
			width = 1
		case c == 0xc5, c == 0xda, c == 0xc8, c == 0xdc, c == 0xde: // 16-bit lengths and counts
			width = 2
		case c == 0xc6, c == 0xdb, c == 0xc9, c == 0xdd, c == 0xdf: // 32-bit lengths and counts
			width = 4
		default: // 0xc1 is never used
			return fmt.Errorf("hsaco: the metadata note holds the MessagePack byte %#x, which no value starts with", c)
		}
		if width > 0 {
			if len(b)-i < width {
				return errors.New("hsaco: the metadata note ends inside a MessagePack length")
			}
			var n uint64
			switch width {
			case 1:
				n = uint64(b[i])
			case 2:
				n = uint64(binary.BigEndian.Uint16(b[i:]))
			case 4:
				n = uint64(binary.BigEndian.Uint32(b[i:]))
			}
			i += width
			if n > uint64(len(b)) {
				return fmt.Errorf("hsaco: the metadata note states a MessagePack length of %d in %d bytes", n, len(b))
			}
			switch c {
			case 0xdc, 0xdd: // arrays
				items = int(n)
			case 0xde, 0xdf: // maps
				items = 2 * int(n)
			case 0xc7, 0xc8, 0xc9: // extensions: the type, then the data
				skip = int(n) + 1
			default:
				skip = int(n)
			}
		}
		if skip > len(b)-i {
			return fmt.Errorf("hsaco: the metadata note states a MessagePack value of %d bytes where %d are left", skip, len(b)-i)
		}
		i += skip
		if pending-1+items > len(b)-i {
			return fmt.Errorf("hsaco: the metadata note states %d MessagePack values where %d bytes are left", pending-1+items, len(b)-i)
		}
		pending += items
	}
	return nil
}
