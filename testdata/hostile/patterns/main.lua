-- Not an attack: checks, when it loads, that the sandbox's string.find,
-- match, gmatch and gsub keep Lua 5.1's semantics. A failing check fails
-- the load with its line.
local function eq(got, want)
  if got ~= want then error(("got %q, want %q"):format(tostring(got), tostring(want)), 2) end
end
local function fails(f, s, pattern, repl)
  if pcall(f, s, pattern, repl) then error(("no error for %q, %q"):format(s, pattern), 2) end
end

eq(("hello world"):gsub("o", "0"), "hell0 w0rld")
eq(select(2, ("hello world"):gsub("o", "0")), 2)
eq(("hello world"):gsub("(%w+)", "<%1>"), "<hello> <world>")
eq(("hello world"):gsub("%w+", "%0 %0", 1), "hello hello world")
eq(("hello world from Lua"):gsub("(%w+)%s*(%w+)", "%2 %1"), "world hello Lua from")
eq(("abc"):gsub("%w", "%%"), "%%%")
eq(("abc"):gsub("", "-"), "-a-b-c-")
eq(("abc"):gsub("^", ">"), ">abc")
eq(("abc"):gsub("b*", "-"), "-a--c-")
eq(("$name-$version"):gsub("%$(%w+)", {name = "lua", version = "5.1"}), "lua-5.1")
eq(("$x$y"):gsub("%$(%w+)", {x = false}), "$x$y")
eq(("4+5 = $return 4+5$"):gsub("%$(.-)%$", function(x) return "9" end), "4+5 = 9")
eq(("abc"):gsub("%w", function(c) if c == "b" then return nil end return c:upper() end), "AbC")
eq(("abc"):gsub(".", {a = 1}), "1bc")
eq(("a,b"):gsub("()", "%1"), "1a2,3b4")
fails(string.gsub, "abc", "(", "%1")
fails(string.gsub, "abc", "%w", "%2")
fails(string.gsub, "abc", "%w", function() return {} end)
fails(string.gsub, "abc", "%w", true)

eq(string.find("hello", "l"), 3)
eq(select(2, string.find("hello", "l+")), 4)
eq(select(3, string.find("key = value", "(%w+)")), "key")
eq(string.find("a.b", ".", 1, true), 2)
eq(string.find("a+b", "+", 1, true), 2)
eq(string.find("abc", "b", -1), nil)
eq(string.find("abc", "b", -2), 2)
eq(string.find("abc", "^b"), nil)
eq(string.find("abc", "^a"), 1)
eq(string.find("abc", ""), 1)
eq(string.find("abc", "", 10), 4)
eq(string.find("abc", "c$"), 3)
eq(string.find("a$c", "$c"), 2)

eq(string.match("  x = 10 ", "^%s*(%w+)%s*=%s*(%w+)"), "x")
eq(select(2, string.match("x = 10", "(%w+)%s*=%s*(%w+)")), "10")
eq(string.match("hello", "()ll()"), 3)
eq(select(2, string.match("hello", "()ll()")), 5)
eq(string.match("THE (quick) fox", "%((%a+)%)"), "quick")
eq(string.match("f(a(b)c)d", "%b()"), "(a(b)c)")
eq(string.match("THE (quick) fox", "%f[%a]%a+", 5), "quick")
eq(string.match("hello", ".-$"), "hello")
eq(string.match("hello", "h(.-)l"), "e")
eq(string.match("abcabc", "(abc)%1"), "abc")
eq(string.match("[x]", "[%[]"), "[")
eq(string.match("a]", "[]]"), "]")
eq(string.match("a-b", "[a%-]+"), "a-")
eq(string.match("a-z", "[%a-]+"), "a-z")
eq(string.match("2024", "^%d+$"), "2024")
eq(string.match("20x24", "^%d+$"), nil)
eq(string.match("a1", "[^%d]"), "a")
eq(string.match("hello", "x?h"), "h")
eq(string.match("\t x", "%s+"), "\t ")
eq(string.match("AbC", "%u+"), "A")
eq(string.match("ff0", "%x+"), "ff0")
eq(string.match("a.b", "%p"), ".")
eq(string.match("a\0b", "%z"), "\0")
eq(string.match("x", "()"), 1)

local n = 0
for w in string.gmatch("one two three", "%a+") do n = n + 1 end
eq(n, 3)
local t = {}
for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do t[k] = v end
eq(t.a .. t.b, "12")
n = 0
for w in string.gmatch("abc", "") do n = n + 1 end
eq(n, 4)

fails(string.find, "a", "%")
fails(string.find, "a", "[a")
fails(string.find, "a", "(a")
fails(string.match, "a", "a)")
fails(string.find, "a", "%1")
fails(string.find, "a", "%b")
fails(string.find, "a", "%f")
fails(string.find, "a", string.rep("(", 33))
