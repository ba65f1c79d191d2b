// Package monitoring holds the Prometheus configuration and the Grafana
// dashboard for watching a run live (--metrics-addr). Its tests check every
// dashboard query names a metric the exporter (results/prom) serves.
package monitoring
