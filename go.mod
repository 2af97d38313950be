module github.com/mod2048/mod2048

go 1.24.0

require (
	github.com/BurntSushi/toml v1.6.0
	pgregory.net/rapid v1.3.0
)

require github.com/yuin/gopher-lua v1.1.2 // indirect
