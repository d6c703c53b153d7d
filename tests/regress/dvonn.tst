# DVONN rules through the protocol (ruleset dvonn-standard-v1).

# Placement order: three reds (White, Black, White), then Black's first piece.
newgame dvonn
1 play b D3
#? [?it is white's turn.*]

play w D3
play b E3
play w F3
2 position
#? [dvonn b place .*R,R,R.*]

play b C3
3 position
#? [dvonn w place -,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/-,-,B,R,R,R,-,-,-,-,-/.*]

4 play w C3
#? [?illegal move.*]

5 play w C1-C3
#? [?illegal move.*]

# White makes the 49th placement and then the first stack move.
newgame dvonn
10 replay G2 C1 F5 D1 H5 G5 I1 E1 F2 F1 E4 E5 J2 G1 B2 B1 H1 G4 D3 C2 E3 F4 C4 D4 A2 A1 D2 E2 A3 G3 D5 F3 I5 C3 H2 H3 K3 H4 K5 I4 I3 J5 I2 B3 J4 J3 K4 B4
#? [48]

11 status
#? [game=dvonn to_act=w phase=placement ply=48 .*]

12 legal_moves
#? [C5]

play w C5
13 status
#? [game=dvonn to_act=w phase=movement ply=49 .*]

# A cut: D1-E1 leaves E1 and F1 without a red piece; both are removed.
setposition dvonn w move R,R,R,W,B,W,-,-,-/W,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-
20 legal_moves
#? [D1-E1\nD1-C1\nF1-E1\nA2-A1]

21 play w D1-E1
#? [D1-E1]

22 position
#? [dvonn b move R,R,R,-,-,-,-,-,-/W,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-]

23 score
#? [white 1 black 0]

# A forced pass: Black's only stack (height 3 at A1) lands nowhere.
setposition dvonn b move WWB,R,R,-,-,-,-,-,-/-,R,W,W,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-
30 legal_moves
#? [pass]

31 play b A1-D1
#? [?illegal move.*]

32 reg_genmove b
#? [pass]

33 genmove b
#? [pass]

34 status
#? [game=dvonn to_act=w phase=movement .* over=no .*]
