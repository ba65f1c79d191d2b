package main

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	composecli "github.com/compose-spec/compose-go/v2/cli"
	"github.com/spf13/pflag"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/generators"
	"github.com/lockbench/lockbench/workloads/lab"
)

// parsedRun is a `lockbench run` command line as run's flags read it.
type parsedRun struct {
	cfg   lab.Run
	gen   generators.Config
	flags []string // the flags set, by name
}

// parseRunLine reads a shell line "exec lockbench run ..." with env's
// variables expanded, as the container's shell would.
func parseRunLine(t *testing.T, line string, env map[string]string) parsedRun {
	t.Helper()
	line = os.Expand(line, func(k string) string { return env[k] })
	words := strings.Fields(line)
	if len(words) < 3 || words[0] != "exec" || words[1] != "lockbench" || words[2] != "run" {
		t.Fatalf("not `exec lockbench run ...`: %q", line)
	}
	p := parsedRun{cfg: lab.DefaultRun(), gen: generators.DefaultConfig()}
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	lab.BindFlags(fs, &p.cfg)
	flagtag.New(fs).Bind(&p.gen)
	if err := fs.Parse(words[3:]); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	fs.Visit(func(f *pflag.Flag) { p.flags = append(p.flags, f.Name) })
	return p
}

// flagNames are the flags of a command line, by name.
func flagNames(args []string) []string {
	var out []string
	for _, a := range args {
		if n, ok := strings.CutPrefix(a, "--"); ok {
			out = append(out, n)
		}
	}
	return out
}

// checkGeneratorLine: the file's command is the one the tests run
// (generatorArgs: every flag of it, no index), for n generators, each
// finding its index i in JOB_COMPLETION_INDEX.
func checkGeneratorLine(t *testing.T, where, line string, n, i int, env map[string]string) parsedRun {
	t.Helper()
	p := parseRunLine(t, line, env)
	for _, f := range flagNames(generatorArgs(n, "c", "p", "r", "o")) {
		if !slices.Contains(p.flags, f) {
			t.Errorf("%s: --%s missing: not the command the generator tests run (%v)", where, f, p.flags)
		}
	}
	if slices.Contains(p.flags, "generator-index") {
		t.Errorf("%s: sets --generator-index: the index must come from %s", where, generators.IndexEnv)
	}
	t.Setenv(generators.IndexEnv, env[generators.IndexEnv])
	if err := p.gen.Resolve(); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if p.gen.Generators != n || p.gen.Index != i {
		t.Errorf("%s: generator %d of %d, want %d of %d", where, p.gen.Index, p.gen.Generators, i, n)
	}
	return p
}

// TestKubernetesGeneratorsJob renders the Indexed Job of
// compose/deploy/k8s-generators.yaml for each index as Kubernetes runs it and
// checks each pod runs the generators' command, as many generators as
// pods, all at once, against the coordination etcd the file defines.
func TestKubernetesGeneratorsJob(t *testing.T) {
	b, err := os.ReadFile("../../compose/deploy/k8s-generators.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job *batchv1.Job
	var coord *corev1.Service
	for _, doc := range regexp.MustCompile(`(?m)^---$`).Split(string(b), -1) {
		var head struct{ Kind string }
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			t.Fatal(err)
		}
		switch head.Kind {
		case "Job":
			job = &batchv1.Job{}
			if err := yaml.UnmarshalStrict([]byte(doc), job); err != nil {
				t.Fatal(err)
			}
		case "Service":
			coord = &corev1.Service{}
			if err := yaml.UnmarshalStrict([]byte(doc), coord); err != nil {
				t.Fatal(err)
			}
		}
	}
	if job == nil || coord == nil {
		t.Fatal("want a Job and the coordination Service")
	}
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion || s.Completions == nil || s.Parallelism == nil || *s.Completions != *s.Parallelism {
		t.Fatalf("job spec: want Indexed, every completion in parallel")
	}
	n := int(*s.Completions)
	c := s.Template.Spec.Containers[0]
	if !slices.Equal(c.Command, []string{"/bin/sh", "-c"}) || len(c.Args) != 1 {
		t.Fatalf("container: command %q args %q", c.Command, c.Args)
	}
	for i := range n {
		p := checkGeneratorLine(t, "pod "+strconv.Itoa(i), c.Args[0], n, i, map[string]string{generators.IndexEnv: strconv.Itoa(i)})
		if want := coord.Name + ":" + strconv.Itoa(int(coord.Spec.Ports[0].Port)); !slices.Equal(p.gen.Coord, []string{want}) {
			t.Errorf("--coord %v, want the file's Service %s", p.gen.Coord, want)
		}
		if p.cfg.Out != "/out/worker-"+strconv.Itoa(i) {
			t.Errorf("pod %d writes %q", i, p.cfg.Out)
		}
	}
}

// TestComposeGenerators loads docker-compose.yml with
// docker-compose.generators.yml as `docker compose -f … -f …` does and
// checks every generator service runs the generators' command with its
// own index, coordinating through a service of the lab.
func TestComposeGenerators(t *testing.T) {
	opts, err := composecli.NewProjectOptions([]string{"../../compose/deploy/docker-compose.yml", "../../compose/deploy/docker-compose.generators.yml"},
		composecli.WithName("lockbench-lab"), composecli.WithProfiles([]string{"*"}))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var gens []string
	for name := range p.Services {
		if strings.HasPrefix(name, "generator-") {
			gens = append(gens, name)
		}
	}
	slices.Sort(gens)
	if len(gens) < 2 {
		t.Fatalf("generator services %v", gens)
	}
	for i, name := range gens {
		svc := p.Services[name]
		env := map[string]string{}
		for k, v := range svc.Environment {
			if v != nil {
				env[k] = *v
			}
		}
		if env[generators.IndexEnv] != strconv.Itoa(i) {
			t.Errorf("%s: %s=%q, want %d", name, generators.IndexEnv, env[generators.IndexEnv], i)
		}
		if !slices.Equal(svc.Entrypoint, []string{"/bin/sh", "-c"}) || len(svc.Command) != 1 {
			t.Fatalf("%s: entrypoint %q command %q", name, svc.Entrypoint, svc.Command)
		}
		// Compose has turned $$ into $: the container's shell expands it.
		pr := checkGeneratorLine(t, name, svc.Command[0], len(gens), i, env)
		for _, c := range pr.gen.Coord {
			if _, ok := p.Services[strings.Split(c, ":")[0]]; !ok {
				t.Errorf("%s: --coord %s is no service of the lab", name, c)
			}
		}
		if !strings.Contains(env["GENERATOR_ARGS"], "--workers") {
			t.Errorf("%s: GENERATOR_ARGS %q", name, env["GENERATOR_ARGS"])
		}
	}
}
