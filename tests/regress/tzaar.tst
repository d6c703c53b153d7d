# TZAAR rules through the protocol (ruleset tzaar-standard-2016-v1).

# A first capture that takes Black's last Tzaar ends the game: a one-action turn.
setposition tzaar w turn a,b,c,A,-/-,-,-,-,-,-/-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-/-,-,-,-,-,-/B,C,-,-,-
1 legal_moves
#? [A3xA4]

2 play w A3xA4
#? [A3xA4]

3 status
#? [game=tzaar to_act=- phase=over .* result=W\+ reason=Black_has_no_Tzaar_on_top_of_a_stack]

4 play b I1xI2
#? [?the game is over]

# Self-loss: White's stacking covers its only Tzaar.
setposition tzaar w turn a,b,c,C,-/-,-,-,-,-,-/-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-/B,-,-,-,-,-/A,C,-,-,-
10 play w A3xA4 A2+A1
#? [A3xA4 A2\+A1]

11 final_score
#? [B\+]

12 status
#? [.* reason=White_has_no_Tzaar_on_top_of_a_stack]

# No capture at the handover: after White's turn Black cannot capture; White wins.
setposition tzaar w turn -,c,-,-,-/-,-,-,-,-,-/-,-,-,-,C,-,-/-,-,-,-,-,-,-,-/-,-,-,A,-,-,-,b/-,-,-,-,-,-,-,a/-,-,-,-,-,-,-/B,-,-,-,c,-/-,-,-,-,C
20 status
#? [.* over=no .*]

21 play w F8xI5 I5+H5
#? [F8xI5 I5\+H5]

22 status
#? [.* result=W\+ reason=Black_has_no_capture_at_the_start_of_the_turn]

# The opening turn is a single capture.
newgame tzaar
30 play w G4xC6 F2+F1
#? [?illegal move.*]
