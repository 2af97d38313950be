//go:build js && wasm

// Command 2048wasm is the browser game's engine, built to WebAssembly: it
// puts the object mod2048 on the page's global object, with one function
// per call of package bridge (cmd/internal/web/bridge):
//
//	mod2048.catalog()                       the rulesets, presets and shipped mods
//	mod2048.newGame(options, best?)         a new game of a setup
//	mod2048.resume(options, save, best?)    a saved game of a setup
//	mod2048.restart(seed?)                  a new game of the same setup
//	mod2048.move("left"|"right"|"up"|"down")
//	mod2048.undo(), redo(), keepPlaying(), save(), view()
//	mod2048.inspectMod(source)              a player's mod's manifest
//	mod2048.version                         the build, as 2048 version says it
//
// Each takes plain values and returns a plain object, a bridge.Reply:
// {view}, {save}, {catalog}, {mod} or {error: {kind, message, file,
// line, key}}. An error is a value, never an exception. When the
// functions are in place the program calls globalThis.mod2048Ready(), if
// the page defined it, and then waits for calls until the page goes.
//
// Build it with make web (GOOS=js GOARCH=wasm); the page loads it with
// Go's wasm_exec.js.
package main

import (
	"encoding/json"
	"fmt"
	"syscall/js"

	"github.com/mod2048/mod2048/cmd/internal/version"
	"github.com/mod2048/mod2048/cmd/internal/web/bridge"
)

func main() {
	b := bridge.New()
	api := js.Global().Get("Object").New()
	for _, name := range bridge.Calls() {
		api.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any { return call(b, name, args) }))
	}
	api.Set("version", version.String())
	js.Global().Set("mod2048", api)
	if ready := js.Global().Get("mod2048Ready"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// call passes a call from JavaScript to the bridge as JSON, and its reply
// back as an object.
func call(b *bridge.Bridge, name string, args []js.Value) (out any) {
	jsJSON := js.Global().Get("JSON")
	defer func() {
		if p := recover(); p != nil {
			// JSON.stringify threw: an argument that is not JSON (a cycle,
			// a BigInt).
			msg := fmt.Sprintf("%s: the arguments cannot be sent: %v", name, p)
			out = jsJSON.Call("parse", string(mustError(msg)))
		}
	}()
	list := make([]any, len(args))
	for i, a := range args {
		list[i] = a
	}
	text := jsJSON.Call("stringify", list).String()
	return jsJSON.Call("parse", string(b.Dispatch(name, []byte(text))))
}

// mustError is a reply with an input error, as JSON.
func mustError(msg string) []byte {
	out, _ := json.Marshal(bridge.Reply{Error: &bridge.Error{Kind: bridge.KindInput, Message: msg}})
	return out
}
