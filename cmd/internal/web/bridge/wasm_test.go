package bridge_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestUnderWasm runs this package's tests again as the browser runs the
// bridge: built for GOOS=js GOARCH=wasm and run by Node through Go's
// go_js_wasm_exec. It is skipped when Node is missing, unless CI=true.
func TestUnderWasm(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("already running under WebAssembly")
	}
	if testing.Short() {
		t.Skip("builds the tests for WebAssembly")
	}
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is missing: the bridge's WebAssembly tests need it")
		}
		t.Skip("node is missing")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goBin, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	root := strings.TrimSpace(string(out))
	execScript := filepath.Join(root, "lib", "wasm", "go_js_wasm_exec")
	if _, err := os.Stat(execScript); err != nil {
		execScript = filepath.Join(root, "misc", "wasm", "go_js_wasm_exec")
	}
	cmd := exec.Command(goBin, "test", "-count=1", "-exec", execScript,
		"-run", "^Test(SameGameAsSession|MotionsAndSpawns|SaveResume|ConfigErrors|Mods|Refusal|RunawayMod|WinAndLose|InputErrors|Dispatch|NineHungryMods|FarKeyMod|SubstringPinMod|SharedStorageMod|NamedValuesMods)$", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test under wasm: %v\n%s", err, got)
	}
	t.Logf("under wasm:\n%s", got)
}
