package devtools

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// conn is a DevTools protocol connection: numbered requests and their
// responses, and events, on a pair of pipes.
type conn struct {
	wmu sync.Mutex
	w   io.WriteCloser

	mu      sync.Mutex
	next    int64
	pending map[int64]chan message
	err     error // why the connection ended
	onEvent func(message)
}

// message is any message of the protocol.
type message struct {
	ID        int64           `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func newConn(r io.Reader, w io.WriteCloser, onEvent func(message)) *conn {
	c := &conn{w: w, pending: map[int64]chan message{}, onEvent: onEvent}
	go c.read(r)
	return c
}

// read delivers responses to their callers and events to onEvent until
// the pipe closes.
func (c *conn) read(r io.Reader) {
	br := bufio.NewReader(r)
	var err error
	for {
		var raw []byte
		raw, err = br.ReadBytes(0)
		if err != nil {
			break
		}
		var m message
		if err = json.Unmarshal(raw[:len(raw)-1], &m); err != nil {
			break
		}
		if m.ID == 0 {
			c.onEvent(m)
			continue
		}
		c.mu.Lock()
		ch := c.pending[m.ID]
		delete(c.pending, m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.err = fmt.Errorf("devtools: connection closed: %w", err)
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
}

// send sends a request and returns the channel its response comes on.
func (c *conn) send(session, method string, params any) (chan message, error) {
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.next++
	id := c.next
	ch := make(chan message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	data, err := json.Marshal(message{ID: id, SessionID: session, Method: method, Params: p})
	if err != nil {
		return nil, err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.w.Write(append(data, 0)); err != nil {
		return nil, fmt.Errorf("devtools: %s: %w", method, err)
	}
	return ch, nil
}

// errClosed is returned for a request the connection ended under.
var errClosed = errors.New("devtools: the browser closed the connection")
