package compare

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/procstat"
)

// TestFloorCommandsSeenByMasters: every cycle a floor counts is one SET
// and one release on every master, as the masters' own command counts
// (INFO commandstats) tell, every SET answered OK and every key released.
func TestFloorCommandsSeenByMasters(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 3, Persistence: "none"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	masters := r.Endpoints()
	for _, client := range []string{"goredis", "rueidis"} {
		t.Run(client, func(t *testing.T) {
			clients := make([]*redis.Client, len(masters))
			for i, m := range masters {
				clients[i] = redis.NewClient(m.GoRedis())
				defer clients[i].Close()
				if err := clients[i].ConfigResetStat(ctx).Err(); err != nil {
					t.Fatal(err)
				}
			}
			// No warmup: every command the masters count is the window's.
			f, err := measureFloor(ctx, client, masters, 8, 10*time.Second, 0, 300*time.Millisecond, procstat.ServerCPU{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if f.Errors != 0 || f.Cycles == 0 || f.Cycles%8 != 0 || f.CyclesPerS <= 0 || f.Masters != 3 || f.Workers != 8 {
				t.Fatalf("floor %+v: want error-free rounds of 8 cycles on 3 masters", f)
			}
			for i, c := range clients {
				stats, err := c.Info(ctx, "commandstats").Result()
				if err != nil {
					t.Fatal(err)
				}
				if set, rel := calls(stats, "set"), calls(stats, "evalsha"); set != f.Cycles || rel != f.Cycles {
					t.Errorf("master %d: %d SETs, %d EVALSHAs; want %d of each (the floor's cycles)", i, set, rel, f.Cycles)
				}
				if n, err := c.DBSize(ctx).Result(); err != nil || n != 0 {
					t.Errorf("master %d: %d keys left (%v): want every floor key released", i, n, err)
				}
			}
		})
	}
}

// TestFloorUnknownClient: a client without a floor is an error naming it.
func TestFloorUnknownClient(t *testing.T) {
	_, err := measureFloor(context.Background(), "jedis", nil, 1, time.Second, 0, time.Millisecond, procstat.ServerCPU{}, nil)
	if err == nil || !strings.Contains(err.Error(), `"jedis"`) {
		t.Fatalf("error %v: want one naming the client", err)
	}
}

// calls is a command's calls in INFO commandstats (0 when absent).
func calls(info, cmd string) int64 {
	for _, line := range strings.Split(info, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "cmdstat_"+cmd+":calls=")
		if !ok {
			continue
		}
		n, _ := strconv.ParseInt(strings.SplitN(rest, ",", 2)[0], 10, 64)
		return n
	}
	return 0
}
