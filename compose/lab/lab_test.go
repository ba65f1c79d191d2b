// Package lab holds the files for lockbench labs bigger than one machine:
// docker-compose.yml, the Dockerfile and the Kubernetes Jobs. No docker
// engine or cluster is needed to test them: they are parsed and checked for
// the structure lockbench relies on.
package lab

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func readYAML(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

type composeService struct {
	Image       string            `json:"image"`
	Command     []string          `json:"command"`
	Entrypoint  []string          `json:"entrypoint"`
	Environment map[string]string `json:"environment"`
	DependsOn   []string          `json:"depends_on"`
	Profiles    []string          `json:"profiles"`
	Build       *struct {
		Context    string `json:"context"`
		Dockerfile string `json:"dockerfile"`
	} `json:"build"`
}

func TestDockerCompose(t *testing.T) {
	var doc struct {
		Services map[string]composeService `json:"services"`
	}
	readYAML(t, "docker-compose.yml", &doc)
	var redis, etcd []string
	for name, s := range doc.Services {
		switch {
		case strings.HasPrefix(name, "redis-"):
			redis = append(redis, name)
			if !strings.Contains(s.Image, "redis") || !slices.Contains(s.Command, "--protected-mode") {
				t.Errorf("%s: %+v", name, s)
			}
		case strings.HasPrefix(name, "etcd-"):
			etcd = append(etcd, name)
			if s.Environment["ETCD_NAME"] != name || !strings.Contains(s.Environment["ETCD_INITIAL_CLUSTER"], name+"=http://"+name+":2380") {
				t.Errorf("%s: environment %v", name, s.Environment)
			}
		}
	}
	if len(redis) != 5 || len(etcd) != 3 {
		t.Fatalf("redis %v etcd %v: want 5 masters and 3 members", redis, etcd)
	}
	for _, name := range []string{"lockbench", "lockbench-etcd", "merge"} {
		s, ok := doc.Services[name]
		if !ok {
			t.Fatalf("no %s service", name)
		}
		if s.Build == nil {
			t.Fatalf("%s: no build", name)
		}
		df := filepath.Join(s.Build.Context, s.Build.Dockerfile)
		if _, err := os.Stat(df); err != nil {
			t.Errorf("%s: dockerfile %s: %v", name, df, err)
		}
		if _, err := os.Stat(filepath.Join(s.Build.Context, "go.mod")); err != nil {
			t.Errorf("%s: build context %s is not the module root", name, s.Build.Context)
		}
	}
	lb := doc.Services["lockbench"]
	for _, r := range redis {
		if !strings.Contains(lb.Command[0], r+":6379") {
			t.Errorf("lockbench does not dial %s: %q", r, lb.Command[0])
		}
		if !slices.Contains(lb.DependsOn, r) {
			t.Errorf("lockbench does not depend on %s", r)
		}
	}
	if e := doc.Services["lockbench-etcd"].Command[0]; !strings.Contains(e, "--backend etcd") || !strings.Contains(e, "etcd-3:2379") {
		t.Errorf("lockbench-etcd: %q", e)
	}
}

func TestDockerfileIsMultiStage(t *testing.T) {
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if n := len(regexp.MustCompile(`(?m)^FROM `).FindAllString(s, -1)); n < 2 {
		t.Errorf("%d stages: want a build and a runtime stage", n)
	}
	for _, want := range []string{"AS build", "go build", "./cmd/lockbench", "COPY --from=build", "ENTRYPOINT"} {
		if !strings.Contains(s, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	// The Go version of the build stage must build this module.
	mod, _ := os.ReadFile("../../go.mod")
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if m == nil || !strings.Contains(s, "golang:"+string(m[1])) {
		t.Errorf("build stage is not golang:%s", m[1])
	}
}

type k8sObject struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata"`
	Spec       map[string]any `json:"spec"`
}

func readK8s(t *testing.T, name string) map[string]k8sObject {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]k8sObject{}
	for _, doc := range regexp.MustCompile(`(?m)^---$`).Split(string(b), -1) {
		var o k8sObject
		if err := yaml.UnmarshalStrict([]byte(doc), &o); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if o.APIVersion == "" || o.Kind == "" || o.Metadata["name"] == nil {
			t.Fatalf("%s: object without apiVersion/kind/name: %+v", name, o)
		}
		out[o.Kind+"/"+o.Metadata["name"].(string)] = o
	}
	return out
}

// get walks a decoded object by keys (string) and indexes (int).
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %q: not a map", k)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("at [%d]: not a list that long", k)
			}
			v = l[k]
		}
	}
	return v
}

func TestKubernetesIndexedJob(t *testing.T) {
	objs := readK8s(t, "k8s-job.yaml")
	job, ok := objs["Job/lockbench-load"]
	if !ok || job.APIVersion != "batch/v1" {
		t.Fatalf("no batch/v1 Job lockbench-load in %v", objs)
	}
	if job.Spec["completionMode"] != "Indexed" || job.Spec["completions"] != job.Spec["parallelism"] {
		t.Errorf("job spec %v: want Indexed with all completions in parallel", job.Spec)
	}
	sts := objs["StatefulSet/redis"]
	if get(t, sts.Spec, "replicas") != float64(5) || get(t, sts.Spec, "serviceName") != "redis" {
		t.Errorf("redis StatefulSet: %v", sts.Spec)
	}
	if get(t, objs["Service/redis"].Spec, "clusterIP") != "None" {
		t.Error("redis Service is not headless: the masters need stable names")
	}
	c := get(t, job.Spec, "template", "spec", "containers", 0)
	args := get(t, c, "args", 0).(string)
	for i := range 5 {
		if !strings.Contains(args, "redis-"+string(rune('0'+i))+".redis:6379") {
			t.Errorf("load job does not dial master %d: %q", i, args)
		}
	}
	if !strings.Contains(args, "--out /out/worker-$JOB_COMPLETION_INDEX") {
		t.Errorf("workers do not write per-index --out dirs: %q", args)
	}
	claim := get(t, job.Spec, "template", "spec", "volumes", 0, "persistentVolumeClaim", "claimName")
	pvc, ok := objs["PersistentVolumeClaim/"+claim.(string)]
	if !ok || get(t, pvc.Spec, "accessModes", 0) != "ReadWriteMany" {
		t.Errorf("volume %v: want a ReadWriteMany claim defined here", claim)
	}

	merge := readK8s(t, "k8s-merge-job.yaml")["Job/lockbench-merge"]
	margs := get(t, merge.Spec, "template", "spec", "containers", 0, "args", 0).(string)
	if !strings.Contains(margs, "lockbench merge /out/worker-*/") {
		t.Errorf("merge job: %q", margs)
	}
	if get(t, merge.Spec, "template", "spec", "volumes", 0, "persistentVolumeClaim", "claimName") != claim {
		t.Error("merge job reads another volume")
	}
}
