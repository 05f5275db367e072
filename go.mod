module github.com/goxpu/xpu

go 1.26
