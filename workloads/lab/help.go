package lab

// Help is what measuring one cell does, in the words of Config's flags:
// lockbench run's help.
const Help = `run starts the servers it needs (or dials --redis), drives lock cycles for
--warmup + --duration, prints a progress line each second and a table at the
end, and writes the summary JSON (--json) and interval logs (--out).`
