package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSelfplayBatchScript runs scripts/selfplay-shard.sh as the batch
// systems would: three processes with JOB_COMPLETION_INDEX 0..2 (a
// Kubernetes Indexed Job, the seed from the Job's uid) and three with
// SLURM_ARRAY_TASK_ID 1..3 (a Slurm array, the seed from its job id). Each
// set merged is byte for byte one unsharded run with the same seed.
func TestSelfplayBatchScript(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	pw := filepath.Join(dir, "pbrain-wuzi")
	if out, err := exec.Command("go", "build", "-o", pw, ".").CombinedOutput(); err != nil {
		t.Fatalf("building pbrain-wuzi: %v\n%s", err, out)
	}
	flags := []string{"-n", "6", "--nodes", "300", "--hash", "1", "--rules", "freestyle,renju", "--sizes", "15"}
	for _, sys := range []struct {
		name, seed string
		env        func(i int) []string
	}{
		{"kubernetes", "", func(i int) []string {
			return []string{"JOB_COMPLETION_INDEX=" + strconv.Itoa(i), "SHARDS=3", "JOB_UID=6f1c2a9e-0d1b-4c55-9a51-1f0e2b7d3c11"}
		}},
		{"slurm", "4242", func(i int) []string {
			return []string{"SLURM_ARRAY_TASK_ID=" + strconv.Itoa(i+1), "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_JOB_ID=4242"}
		}},
	} {
		res := filepath.Join(dir, sys.name)
		seed := sys.seed
		for i := range 3 {
			cmd := exec.Command("sh", "../../scripts/selfplay-shard.sh")
			cmd.Args = append(cmd.Args, flags...)
			cmd.Env = append(os.Environ(), append(sys.env(i), "RESULTS_DIR="+res, "PBRAIN_WUZI="+pw)...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s shard %d: %v\n%s", sys.name, i, err, out)
			}
			// The script names the seed it used: all shards share it.
			_, after, ok := strings.Cut(string(out), "seed ")
			if !ok {
				t.Fatalf("%s shard %d said %q", sys.name, i, out)
			}
			s, _, _ := strings.Cut(after, ",")
			if seed == "" {
				seed = s
			} else if s != seed {
				t.Errorf("%s shard %d: seed %s, want %s", sys.name, i, s, seed)
			}
		}
		files, _ := filepath.Glob(filepath.Join(res, "positions-*-of-3.txt"))
		if len(files) != 3 {
			t.Fatalf("%s: shard files %v", sys.name, files)
		}
		merged := filepath.Join(res, "merged.txt")
		var out, errb bytes.Buffer
		if rc := run(append([]string{"selfplay", "merge", "-o", merged}, files...), nil, &out, &errb); rc != 0 {
			t.Fatalf("%s merge: rc %d\n%s", sys.name, rc, errb.String())
		}
		out.Reset()
		if rc := run(append([]string{"selfplay", "-q", "--seed", seed}, flags...), nil, &out, &errb); rc != 0 {
			t.Fatalf("whole run: rc %d\n%s", rc, errb.String())
		}
		// Each shard plays only its share of the games.
		for _, f := range files {
			if b, _ := os.ReadFile(f); len(b) == 0 || len(b) >= out.Len() {
				t.Errorf("%s: %s has %d bytes, the whole run %d: not a share of it", sys.name, filepath.Base(f), len(b), out.Len())
			}
		}
		if b, _ := os.ReadFile(merged); len(b) == 0 || string(b) != out.String() {
			t.Errorf("%s: merged shards (%d bytes) differ from the unsharded run with seed %s (%d bytes)", sys.name, len(b), seed, out.Len())
		}
	}
	// Without a shard index the script refuses to guess.
	cmd := exec.Command("sh", "../../scripts/selfplay-shard.sh")
	cmd.Env = append(os.Environ(), "RESULTS_DIR="+dir, "PBRAIN_WUZI="+pw, "SHARDS=3", "SEED=1")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "which shard") {
		t.Errorf("no index: %v %s", err, out)
	}
}
