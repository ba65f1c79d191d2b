package main

import (
	"github.com/lockbench/lockbench/results/schema"
)

// version is what --version prints (schema.BuildVersion).
var version = schema.BuildVersion
