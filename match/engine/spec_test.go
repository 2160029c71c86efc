package engine

import (
	"reflect"
	"testing"
)

func TestParseSpec(t *testing.T) {
	got, err := ParseSpec("cmd=./pbrain-wuzi -x 1,dir=/tmp/w,name=new,option=hash_size=64,option=thread_num=1")
	want := Spec{Name: "new", Command: "./pbrain-wuzi", Args: []string{"-x", "1"}, Dir: "/tmp/w",
		Options: []Option{{"hash_size", "64"}, {"thread_num", "1"}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, %v", got, err)
	}
	got, err = ParseSpec(`C:\gomocup\pbrain-rapfi64.exe`)
	if err != nil || got.Command != `C:\gomocup\pbrain-rapfi64.exe` || got.Name == "" {
		t.Errorf("bare command: %+v, %v", got, err)
	}
	if got, _ := ParseSpec("/opt/e/pbrain-embryo.exe"); got.Name != "pbrain-embryo" {
		t.Errorf("default name %q", got.Name)
	}
	if got, err := ParseSpec("cmd=rapfi,memlimit=0"); err != nil || !got.HasMemLimit || got.MemLimit != 0 {
		t.Errorf("memlimit=0: %+v, %v", got, err)
	}
	if got, err := ParseSpec("cmd=rapfi,memlimit=104857600"); err != nil || !got.HasMemLimit || got.MemLimit != 100<<20 {
		t.Errorf("memlimit=104857600: %+v, %v", got, err)
	}
	for _, bad := range []string{"", "name=x", "cmd=a,b", "cmd=a,option=x", "cmd=a,colour=red", "cmd=", "cmd=a,memlimit=-1", "cmd=a,memlimit=lots"} {
		if _, err := ParseSpec(bad); err == nil {
			t.Errorf("ParseSpec(%q) accepted", bad)
		}
	}
}

func TestParseMove(t *testing.T) {
	for in, want := range map[string][3]int{"7,7": {7, 7, 1}, " 10 , 3 ": {10, 3, 1}, "-1,4": {-1, 4, 1},
		"7 7": {0, 0, 0}, "a,b": {0, 0, 0}, "7,7,1": {0, 0, 0}, "": {0, 0, 0}} {
		x, y, ok := ParseMove(in)
		if (ok != (want[2] == 1)) || (ok && (x != want[0] || y != want[1])) {
			t.Errorf("ParseMove(%q) = %d,%d,%v", in, x, y, ok)
		}
	}
}
