package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"wuzi/match/results"
)

// TestBatchScript runs scripts/match-shard.sh as the batch systems would:
// four processes with JOB_COMPLETION_INDEX 0..3 (a Kubernetes Indexed Job,
// the seed from the Job's uid), and four with SLURM_ARRAY_TASK_ID 1..4 (a
// Slurm array submitted with --array=1-4, the seed from its job id). Each
// set merged prints the table of one unsharded run with the same seed.
func TestBatchScript(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	fake := buildFake(t)
	dir := t.TempDir()
	wm := filepath.Join(dir, "wuzi-match")
	if out, err := exec.Command("go", "build", "-o", wm, ".").CombinedOutput(); err != nil {
		t.Fatalf("building wuzi-match: %v\n%s", err, out)
	}
	match := []string{"-e", "cmd=" + fake + " -seed 3,name=a", "-e", "cmd=" + fake + " -seed 4,name=b",
		"-e", "cmd=" + fake + " -mode junk -after 4,name=c", "-n", "6", "--max-plies", "30", "--timeout-turn", "2s"}
	for _, sys := range []struct {
		name string
		env  func(i int) []string
	}{
		{"kubernetes", func(i int) []string {
			return []string{"JOB_COMPLETION_INDEX=" + strconv.Itoa(i), "SHARDS=4", "JOB_UID=6f1c2a9e-0d1b-4c55-9a51-1f0e2b7d3c11"}
		}},
		{"slurm", func(i int) []string {
			return []string{"SLURM_ARRAY_TASK_ID=" + strconv.Itoa(i+1), "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=4", "SLURM_ARRAY_JOB_ID=4242"}
		}},
	} {
		res := filepath.Join(dir, sys.name)
		for i := range 4 {
			cmd := exec.Command("sh", "../../scripts/match-shard.sh")
			cmd.Args = append(cmd.Args, match...)
			cmd.Env = append(os.Environ(), append(sys.env(i), "RESULTS_DIR="+res, "WUZI_MATCH="+wm)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s shard %d: %v\n%s", sys.name, i, err, out)
			}
		}
		files, _ := filepath.Glob(filepath.Join(res, "shard-*-of-4.jsonl"))
		if len(files) != 4 {
			t.Fatalf("%s: shard files %v", sys.name, files)
		}
		f, err := results.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		seed := f.Header.Seed
		if sys.name == "slurm" && seed != 4242 {
			t.Errorf("slurm seed %d, want the array job id", seed)
		}
		var merged, whole, errb bytes.Buffer
		if rc := run(append([]string{"merge"}, files...), &merged, &errb); rc != 0 {
			t.Fatalf("%s merge: rc %d %s", sys.name, rc, errb.String())
		}
		if rc := run(append(slices.Clone(match), "--seed", fmt.Sprint(seed)), &whole, &errb); rc != 0 {
			t.Fatalf("whole run: rc %d %s", rc, errb.String())
		}
		if a, b := finalTable(t, merged.String()), finalTable(t, whole.String()); a != b {
			t.Errorf("%s: merged\n%s\nwant the unsharded run's\n%s", sys.name, a, b)
		}
		if !strings.Contains(merged.String(), "Merged 4 files: 12 of 12 games.") {
			t.Errorf("%s: %s", sys.name, merged.String())
		}
	}
	// Without a shard index the script refuses to guess.
	cmd := exec.Command("sh", "../../scripts/match-shard.sh", "-e", "cmd=x")
	cmd.Env = append(os.Environ(), "RESULTS_DIR="+dir, "WUZI_MATCH="+wm, "SHARDS=4", "SEED=1")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "which shard") {
		t.Errorf("no index: %v %s", err, out)
	}
}
