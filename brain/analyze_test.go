package brain

import (
	"context"
	"testing"

	"wuzi/protocol"
)

// TestAnalyzeDoesNotPlay: YXNBEST (Analyze) answers a move and leaves the
// position as it was; Think plays its move.
func TestAnalyzeDoesNotPlay(t *testing.T) {
	br := New(Config{HashMB: 4})
	if err := br.Start(15, 15); err != nil {
		t.Fatal(err)
	}
	_ = br.SetInfo("timeout_turn", "200")
	stones := []protocol.Stone{{Move: protocol.Move{X: 7, Y: 7}, Field: protocol.FieldOwn}, {Move: protocol.Move{X: 8, Y: 8}, Field: protocol.FieldOpponent}}
	if err := br.SetPosition(stones); err != nil {
		t.Fatal(err)
	}
	key, ply := br.Board().Hash(), br.Board().Ply()
	m, err := br.Analyze(context.Background(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if br.Board().Hash() != key || br.Board().Ply() != ply {
		t.Fatalf("Analyze changed the position (answered %v)", m)
	}
	if p := br.Board().Pos(m.X, m.Y); !br.Board().IsEmpty(p) {
		t.Fatalf("Analyze answered the occupied %v", m)
	}
	if _, err := br.Think(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	if br.Board().Ply() != ply+1 {
		t.Fatalf("Think did not play its move")
	}
}
