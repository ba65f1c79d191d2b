package workloads

import "strconv"

func init() {
	RegisterGenerator("uncontended", "every cycle locks a fresh key: no two workers ever meet", nil,
		func(c Config) Generator { return uncontended{prefix: c.Prefix} })
}

type uncontended struct{ prefix string }

func (u uncontended) Worker(id int) KeySource {
	return &freshKeys{buf: []byte(u.prefix + ":u:" + strconv.Itoa(id) + ":")}
}

type freshKeys struct {
	buf []byte
	n   int
	n0  int
}

func (f *freshKeys) Next() string {
	if f.n0 == 0 {
		f.n0 = len(f.buf)
	}
	f.n++
	f.buf = strconv.AppendInt(f.buf[:f.n0], int64(f.n), 10)
	return string(f.buf)
}
