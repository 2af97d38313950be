// Package sandbox is the guarded Lua runtime the mod host (package
// scripting) runs every mod in: what makes gopher-lua (our copy,
// scripting/internal/lua) safe and fast for hostile code, and nothing of
// mods, games or events.
//
//   - New makes a state: only the base, table, string and math libraries,
//     trimmed (no files, no bytecode, no environments, no unseeded random
//     source), copied from templates made once a process (stdlib.go), with
//     the sandbox's own functions (sandbox.go): capped builtins that charge
//     their work, string.format and tostring without memory addresses
//     (format.go), and print to a Log (log.go). The pattern functions are
//     the Lua copy's (its pattern.go), bounded by Limits.MaxPattern and
//     MaxString (lua.PatternLimits), each step counted as an instruction.
//   - A Budget is the context a state runs under: the VM counts every
//     instruction against it, builtins Spend, what tables, closures and
//     numbers allocate is metered (lua.Meter) and charged, and a cap
//     bounds what one call may build. Start opens a call, End closes it
//     and says why it stopped, if it did. The process's Watchdog is the
//     wall-clock (and, if asked, heap) failsafe of running calls.
//   - CompileCached and CachedCompile compile a file once a process, with
//     `..` and `...` rewritten to be charged by size (concat.go), if it
//     nests no deeper than MaxDepth (depth.go), which bounds the time the
//     compiler takes; CompileCost is what the host charges for it, by the
//     bytes of source, before it compiles (Budget.Charge, Spend); Bind
//     binds a compiled file to a state and its Meters.
//   - Box.Weigh weighs the values reachable from some roots as Go lays them
//     out, a closure's compiled code included: the host's memory budgets.
//
// The host keeps what it needs for a state in Box.Host (SetHost), which
// its own functions read through Of.
package sandbox
