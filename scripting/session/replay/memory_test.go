package replay_test

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mod2048/mod2048/config"
	"github.com/mod2048/mod2048/engine"
	"github.com/mod2048/mod2048/scripting/session"
	"github.com/mod2048/mod2048/scripting/session/replay"
)

// bigReplay records games without mods (undoing and redoing now and then,
// and starting a new game at each loss) until the replay is about size
// bytes, and writes it to a file.
func bigReplay(t testing.TB, size int) string {
	t.Helper()
	c, err := config.Build(config.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(session.Setup{Config: c}, session.Start{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Record(); err != nil {
		t.Fatal(err)
	}
	dirs := []engine.Direction{engine.Left, engine.Up, engine.Right, engine.Down}
	seed := uint64(1)
	for n := 0; n*66 < size; n++ {
		switch legal := s.Legal(); {
		case s.Status() == engine.Lost || legal == 0:
			seed++
			if err := s.NewGame(seed); err != nil {
				t.Fatal(err)
			}
		case n%50 == 7:
			s.Undo()
		case n%50 == 8:
			s.Redo()
		default:
			for k := range dirs {
				d := dirs[(n+k)%4]
				if legal.Has(d) {
					if _, err := s.Move(d); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
		}
	}
	f, err := replay.New(s, replay.Meta{Program: "test"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.replay")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// peakHeap runs f and returns the most bytes of live heap objects seen
// while it ran (sampled every millisecond) and the bytes it allocated.
func peakHeap(f func()) (peak, alloc uint64) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return peak - min(peak, before.HeapAlloc), after.TotalAlloc - before.TotalAlloc
}

// TestCheckMemory: reading a replay allocates a small multiple of the
// file's size, and keeps less than three times it; reading and checking
// it peaks within a small multiple too (logged: the peak depends on when
// the collector runs). Before the actions were decoded one at a time, a
// replay of 62 MiB took 564 MB of heap at its peak (9×), and its reading
// allocated 11× its size.
func TestCheckMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a large replay")
	}
	size := 8 << 20
	if s, err := strconv.Atoi(os.Getenv("REPLAY_MEMORY_MB")); err == nil && s > 0 {
		size = s << 20 // to measure larger files: REPLAY_MEMORY_MB=60
	}
	path := bigReplay(t, size)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	bytes := uint64(info.Size())
	var f *replay.File
	readPeak, readAlloc := peakHeap(func() { f, err = replay.Read(path) })
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	live := m.HeapAlloc
	setup, _, err := f.Setup(nil)
	if err != nil {
		t.Fatal(err)
	}
	checkPeak, _ := peakHeap(func() { err = f.Check(setup) })
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(f)
	ratio := func(n uint64) float64 { return float64(n) / float64(bytes) }
	t.Logf("a replay of %d bytes, %d actions: Read allocates %d MB (%.1f×), peaks at %d MB (%.1f×) and keeps %d MB (%.1f×); Check peaks at %d MB over that (%.1f×)",
		bytes, len(f.Actions), readAlloc>>20, ratio(readAlloc), readPeak>>20, ratio(readPeak), live>>20, ratio(live), checkPeak>>20, ratio(checkPeak))
	if readAlloc > 5*bytes {
		t.Errorf("reading a replay of %d MB allocates %d MB: more than 5× its size", bytes>>20, readAlloc>>20)
	}
	if live > 3*bytes {
		t.Errorf("a replay of %d MB holds %d MB once read: more than 3× its size", bytes>>20, live>>20)
	}
}
