// Package lab holds the files for lockbench labs bigger than one machine:
// docker-compose.yml, the Dockerfile and the Kubernetes Jobs. No docker
// engine or cluster is needed to test them: the compose file is loaded with
// compose-go (what `docker compose config` runs), the Kubernetes objects are
// decoded strictly into their k8s.io/api types, and both are checked for the
// structure lockbench relies on.
package deploy

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
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
	DependsOn   dependsOn         `json:"depends_on"`
	Volumes     []string          `json:"volumes"`
	Profiles    []string          `json:"profiles"`
	Build       *struct {
		Context    string `json:"context"`
		Dockerfile string `json:"dockerfile"`
	} `json:"build"`
}

// dependsOn reads both forms of depends_on: a list of names, or a map of
// names to conditions.
type dependsOn []string

func (d *dependsOn) UnmarshalJSON(b []byte) error {
	var l []string
	if json.Unmarshal(b, &l) == nil {
		*d = l
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	for k := range m {
		*d = append(*d, k)
	}
	slices.Sort(*d)
	return nil
}

func TestDockerCompose(t *testing.T) {
	var doc struct {
		Services map[string]composeService `json:"services"`
	}
	readYAML(t, "docker-compose.yml", &doc)
	var redis, etcd []string
	for name, s := range doc.Services {
		switch {
		case name == "redis-secret":
		case strings.HasPrefix(name, "redis-"):
			redis = append(redis, name)
			if !strings.Contains(s.Image, "redis") || len(s.Command) != 1 || !strings.Contains(s.Command[0], "--protected-mode") {
				t.Errorf("%s: %+v", name, s)
			}
			// The password: from the generated secret, into a config
			// file (requirepass), never on redis-server's command line.
			if c := s.Command[0]; !strings.Contains(c, "requirepass") || !strings.Contains(c, "/secret/redis-password") ||
				!strings.Contains(c, "exec redis-server /tmp/auth.conf") || !slices.Contains(s.Volumes, "redis-secret:/secret:ro") ||
				!slices.Contains(s.DependsOn, "redis-secret") {
				t.Errorf("%s does not require the generated password: %+v", name, s)
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
	if !strings.Contains(lb.Command[0], "--redis-password-file /secret/redis-password") || !slices.Contains(lb.Volumes, "redis-secret:/secret:ro") {
		t.Errorf("lockbench does not authenticate with the generated password: %+v", lb)
	}
	if g := doc.Services["redis-secret"]; len(g.Command) != 1 || !strings.Contains(g.Command[0], "/dev/urandom") ||
		!strings.Contains(g.Command[0], "> /secret/redis-password") || !strings.Contains(g.Command[0], "umask 077") {
		t.Errorf("redis-secret does not generate a private password: %+v", g)
	}
	if e := doc.Services["lockbench-etcd"].Command[0]; !strings.Contains(e, "--backend etcd") || !strings.Contains(e, "etcd-3:2379") {
		t.Errorf("lockbench-etcd: %q", e)
	}
	for _, name := range []string{"lockbench", "lockbench-etcd"} { // scaled generators must not share keys
		if c := doc.Services[name].Command[0]; !strings.Contains(c, "--prefix $$(hostname)-") {
			t.Errorf("%s: no per-container --prefix: %q", name, c)
		}
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
	// The masters' password: a Secret the masters read into requirepass,
	// the probes and the workers use.
	secretOf := func(spec any) bool {
		for _, v := range get(t, spec, "volumes").([]any) {
			if m, ok := v.(map[string]any)["secret"].(map[string]any); ok && m["secretName"] == "lockbench-redis" {
				return true
			}
		}
		return false
	}
	sc := get(t, sts.Spec, "template", "spec", "containers", 0)
	if a := get(t, sc, "args", 0).(string); !secretOf(get(t, sts.Spec, "template", "spec")) ||
		!strings.Contains(a, "requirepass") || !strings.Contains(a, "/secret/password") || !strings.Contains(a, "exec redis-server /tmp/auth.conf") {
		t.Errorf("masters do not require the Secret's password: %v", sc)
	}
	if p := get(t, sc, "readinessProbe", "exec", "command", 2).(string); !strings.Contains(p, "REDISCLI_AUTH") {
		t.Errorf("readiness probe without the password: %q", p)
	}
	if w := get(t, job.Spec, "template", "spec", "initContainers", 0, "command", 2).(string); !strings.Contains(w, "REDISCLI_AUTH") {
		t.Errorf("wait-for-masters without the password: %q", w)
	}
	if !secretOf(get(t, job.Spec, "template", "spec")) || !strings.Contains(args, "--redis-password-file /secret/password") {
		t.Errorf("workers do not authenticate with the Secret's password: %q", args)
	}
	if !strings.Contains(args, "--out /out/worker-$JOB_COMPLETION_INDEX") {
		t.Errorf("workers do not write per-index --out dirs: %q", args)
	}
	if !strings.Contains(args, "--prefix w$JOB_COMPLETION_INDEX-") {
		t.Errorf("pods share keys (no per-index --prefix): %q", args)
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

// TestKubernetesSchema decodes every object of the Kubernetes files into
// its official Go type (k8s.io/api) with strict decoding: a misspelt or
// misplaced field, or a value of the wrong type, fails — the check
// `kubectl apply --dry-run=client` would make against its schema, which
// needs an API server this machine does not have.
func TestKubernetesSchema(t *testing.T) {
	types := map[string]func() any{
		"v1/Service":               func() any { return &corev1.Service{} },
		"v1/PersistentVolumeClaim": func() any { return &corev1.PersistentVolumeClaim{} },
		"apps/v1/StatefulSet":      func() any { return &appsv1.StatefulSet{} },
		"batch/v1/Job":             func() any { return &batchv1.Job{} },
	}
	for _, file := range []string{"k8s-job.yaml", "k8s-merge-job.yaml"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range regexp.MustCompile(`(?m)^---$`).Split(string(b), -1) {
			var head k8sObject
			if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
				t.Fatalf("%s #%d: %v", file, i, err)
			}
			mk, ok := types[head.APIVersion+"/"+head.Kind]
			if !ok {
				t.Errorf("%s #%d: %s/%s: no schema to check it against", file, i, head.APIVersion, head.Kind)
				continue
			}
			if err := yaml.UnmarshalStrict([]byte(doc), mk()); err != nil {
				t.Errorf("%s #%d (%s): %v", file, i, head.Kind, err)
			}
		}
	}
	// The check must be able to fail: a misplaced field is caught.
	bad := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec:\n  completionMode: Indexed\n  paralelism: 4\n"
	if err := yaml.UnmarshalStrict([]byte(bad), &batchv1.Job{}); err == nil {
		t.Error("strict decoding accepted a misspelt field")
	}
}

// TestDockerComposeSchema loads docker-compose.yml with compose-go, the
// loader `docker compose config` runs (interpolation, the compose-spec JSON
// schema, normalisation), with every profile on: what `docker compose
// config` would say, without the compose plugin this machine lacks.
func TestDockerComposeSchema(t *testing.T) {
	load := func(file string) (*types.Project, error) {
		opts, err := cli.NewProjectOptions([]string{file}, cli.WithName("lockbench-lab"), cli.WithProfiles([]string{"*"}))
		if err != nil {
			return nil, err
		}
		return opts.LoadProject(context.Background())
	}
	p, err := load("docker-compose.yml")
	if err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	var names []string
	for name := range p.Services {
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) != 12 { // redis-secret, 5 masters, 3 members, lockbench, lockbench-etcd, merge
		t.Errorf("services %v: want 12", names)
	}
	// The check must be able to fail: a field the schema does not know.
	b, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "docker-compose.yml")
	broken := strings.Replace(string(b), "  lockbench:\n", "  lockbench:\n    restart_policy: sometimes\n", 1)
	if err := os.WriteFile(bad, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := load(bad); err == nil {
		t.Error("compose-go accepted an unknown service field")
	}
}
