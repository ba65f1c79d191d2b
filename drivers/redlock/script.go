package redlock

// The two Lua scripts every Redis adapter runs. They compare the token before
// touching the key, so a client never deletes or extends another's lock.
const (
	// ReleaseScript: KEYS[1]=key ARGV[1]=token → 1 deleted, 0 not ours.
	ReleaseScript = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`
	// ExtendScript: KEYS[1]=key ARGV[1]=token ARGV[2]=ttl ms → 1 extended, 0 not ours.
	ExtendScript = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`
)
