package compose

import (
	"os"
	"strconv"
	"syscall"
)

func itoa(i int) string { return strconv.Itoa(i) }

func ownerUID(st os.FileInfo) uint32 { return st.Sys().(*syscall.Stat_t).Uid }
