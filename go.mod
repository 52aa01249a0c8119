module github.com/collide-go/collide

go 1.24.0

require (
	github.com/tidwall/rtree v1.10.0
	golang.org/x/image v0.36.0
)

require github.com/tidwall/geoindex v1.7.0 // indirect
