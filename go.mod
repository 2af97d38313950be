module github.com/mod2048/mod2048

go 1.24.0
