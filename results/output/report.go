package output

// ReportHelp is what the HTML report of ReadReport shows: lockbench
// report's help.
const ReportHelp = `report renders one or more --out directories (or summary JSON files) as a
single HTML file that needs no network to view: a strategy comparison, the
latency distribution of every op on HdrHistogram's 1/(1-p) percentile axis,
throughput and p99 over time (from the .hlog files), the capacity sweep
when the directory holds one, and the config and versions of every input.`
