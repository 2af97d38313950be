package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mod2048/mod2048/cmd/internal/web"
)

// TestHostGuard: the server answers only to the names it was bound to
// (DNS rebinding), with its port.
func TestHostGuard(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	tests := []struct {
		bound string
		port  int
		host  string
		want  int
	}{
		{"127.0.0.1", 8048, "127.0.0.1:8048", 200},
		{"127.0.0.1", 8048, "localhost:8048", 200},
		{"127.0.0.1", 8048, "LOCALHOST:8048", 200},
		{"127.0.0.1", 8048, "[::1]:8048", 200},
		{"127.0.0.1", 8048, "evil.example:8048", 421},
		{"127.0.0.1", 8048, "evil.example", 421},
		{"127.0.0.1", 8048, "127.0.0.1:9999", 421},
		{"127.0.0.1", 8048, "127.0.0.1", 421},
		{"127.0.0.1", 8048, "", 421},
		{"127.0.0.1", 8048, "localhost.evil.example:8048", 421},
		{"localhost", 8048, "localhost:8048", 200},
		{"localhost", 8048, "127.0.0.1:8048", 200},
		{"localhost", 80, "localhost", 200},
		{"[::1]", 8048, "[::1]:8048", 200},
		{"[::1]", 8048, "localhost:8048", 200},
		{"", 8048, "192.168.1.9:8048", 200},
		{"", 8048, "localhost:8048", 200},
		{"", 8048, "evil.example:8048", 421},
		{"0.0.0.0", 8048, "10.0.0.2:8048", 200},
		{"0.0.0.0", 8048, "rebind.evil.example:8048", 421},
		{"192.168.1.9", 8048, "192.168.1.9:8048", 200},
		{"192.168.1.9", 8048, "localhost:8048", 421},
		{"game.lan", 8048, "game.lan:8048", 200},
		{"game.lan", 8048, "other.lan:8048", 421},
	}
	for _, tt := range tests {
		h := web.HostGuard(ok, tt.bound, tt.port)
		r := httptest.NewRequest("GET", "/defaults.json", nil)
		r.Host = tt.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.want {
			t.Errorf("bound %q:%d, Host %q: %d, want %d (%s)", tt.bound, tt.port, tt.host, w.Code, tt.want, w.Body)
		}
		if w.Code == 421 && !strings.Contains(w.Body.String(), "answers to ") {
			t.Errorf("bound %q, Host %q: the refusal says %q", tt.bound, tt.host, w.Body)
		}
	}
}
