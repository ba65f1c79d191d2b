package main

import "github.com/lockbench/lockbench/results"

// version is what --version prints (results.BuildVersion).
var version = results.BuildVersion
