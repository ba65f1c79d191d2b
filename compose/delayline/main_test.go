package delayline

import (
	"fmt"
	"os"
	"testing"
)

// parentEnv makes the test binary a parent that starts a line, prints the
// line's pid and waits to be killed: the orphan test's parent.
const parentEnv = "DELAYLINE_TEST_PARENT"

func TestMain(m *testing.M) {
	ServeIfChild()
	if _, ok := os.LookupEnv(parentEnv); ok {
		p, err := Start([]Pair{{Listen: "127.0.0.1:0", Target: "127.0.0.1:1"}}, Options{})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("pid", p.Pid())
		select {}
	}
	os.Exit(m.Run())
}
