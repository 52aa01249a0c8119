// Package bench holds the engine's benchmarks over the shared swarm scene
// and the arena scene; it has no API of its own. Run them with
//
//	go test -run '^$' -bench . -benchmem ./bench
//	go test -run '^$' -bench 'Step/n=10000' -benchmem -count 10 ./bench > new.txt
//	benchstat old.txt new.txt
//	go test -run '^$' -bench 'Step/n=10000/workers=1' -cpuprofile cpu.out ./bench
//	go tool pprof -top cpu.out
//
// One op of BenchmarkStep is one frame: the scene's motion rule, a
// SetTransform for every moving body and a Step. Phase costs are reported
// as extra metrics from the world's Stats.
package bench
