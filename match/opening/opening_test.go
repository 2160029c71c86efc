package opening

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestParseAndPlace(t *testing.T) {
	os, err := Parse(strings.NewReader("# comment\n0,0, 1,0, 1,3\n\n-7,-5, -7,-6\n"))
	if err != nil || len(os) != 2 {
		t.Fatalf("%v %v", os, err)
	}
	p, err := os[0].Place(15, 15)
	if err != nil || !slices.Equal(p, []Point{{7, 7}, {8, 7}, {8, 10}}) {
		t.Errorf("15x15: %v %v", p, err)
	}
	p, _ = os[0].Place(20, 20)
	if !slices.Equal(p, []Point{{10, 10}, {11, 10}, {11, 13}}) {
		t.Errorf("20x20: %v", p)
	}
	if _, err := os[1].Place(10, 10); err == nil {
		t.Error("a stone off the board was placed")
	}
	if _, err := (Opening{{0, 0}, {0, 0}}).Place(15, 15); err == nil {
		t.Error("two stones on one cell were placed")
	}
	for _, bad := range []string{"1,2,3", "a,b", "x"} {
		if _, err := ParseLine(bad); err == nil {
			t.Errorf("ParseLine(%q) accepted", bad)
		}
	}
}

func TestSharedFile(t *testing.T) {
	f, err := os.Open("../../testdata/openings_freestyle_3stone.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := Parse(f)
	if err != nil || len(all) != 41 {
		t.Fatalf("%d openings, %v", len(all), err)
	}
	// The file was made for 20x20: every opening fits there, one is too
	// wide for 15x15.
	fit15 := 0
	for _, o := range all {
		if _, err := o.Place(20, 20); err != nil {
			t.Error(err)
		}
		if _, err := o.Place(15, 15); err == nil {
			fit15++
		}
	}
	if fit15 != 40 {
		t.Errorf("%d openings fit 15x15, want 40", fit15)
	}
}

func TestDefault(t *testing.T) {
	d := Default()
	if len(d) != 12 {
		t.Fatalf("%d built-in openings", len(d))
	}
	for _, o := range d {
		if _, err := o.Place(15, 15); err != nil || len(o) != 3 {
			t.Errorf("%v: %v", o, err)
		}
	}
}

func TestOrder(t *testing.T) {
	if got := Order(3, 5, false, 1); !slices.Equal(got, []int{0, 1, 2, 0, 1}) {
		t.Errorf("sequential %v", got)
	}
	a, b := Order(10, 10, true, 42), Order(10, 10, true, 42)
	if !slices.Equal(a, b) {
		t.Error("the same seed gave different orders")
	}
	s := slices.Clone(a)
	slices.Sort(s)
	if !slices.Equal(s, Order(10, 10, false, 0)) {
		t.Errorf("random order %v is not a permutation", a)
	}
	if slices.Equal(a, Order(10, 10, true, 43)) {
		t.Error("different seeds gave the same order")
	}
}

// TestGenerate: the same seed draws the same openings, another seed others;
// each is three distinct stones that fit an 11x11 board, White's next to
// Black's first.
func TestGenerate(t *testing.T) {
	a, b, c := Generate(7, 50), Generate(7, 50), Generate(8, 50)
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Error("the same seed drew different openings")
	}
	if slices.EqualFunc(a, c, slices.Equal) {
		t.Error("seeds 7 and 8 drew the same openings")
	}
	distinct := map[string]bool{}
	for _, o := range a {
		distinct[o.String()] = true
		if len(o) != 3 {
			t.Fatalf("%v: want three stones", o)
		}
		if _, err := o.Place(11, 11); err != nil {
			t.Error(err)
		}
		if dx, dy := o[1].DX-o[0].DX, o[1].DY-o[0].DY; max(dx, -dx, dy, -dy) != 1 {
			t.Errorf("%v: White's stone is not next to Black's", o)
		}
	}
	if len(distinct) < 40 {
		t.Errorf("only %d distinct openings of 50", len(distinct))
	}
}
