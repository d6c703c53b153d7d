# Protocol: administrative commands, records, GoGui integration.
1 protocol_version
#? [2]

2 known_command loadrecord
#? [true]

3 known_command no_such_command
#? [false]

4 list_commands
#? [.*\bprintrecord\b.*]

5 no_such_command
#? [?unknown command.*]

6 gogui-analyze_commands
#? [string/Analyze/analyze\n.*string/Legal moves/legal_moves\n.*]

7 gogui-analyze_commands
#? [!.*/(nonexistent|\s*)$.*]

# printrecord after newgame + moves + undo: the history is the game's own
newgame dvonn
play w D3
play b E3
play w F3
undo
10 printrecord
#? [Site \[www\.littlegolem\.net\] 1\. d3 e3]

11 undo 5
#? [?cannot undo 5 moves: only 2 played]

# a record needs the game from its start
setposition dvonn w move R,R,R,W,B,W,-,-,-/W,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-
20 printrecord
#? [?.*needs a game from its start.*]

21 loadrecord tests/regress/no-such-file.txt
#? [?cannot read .*]

# the failed loadrecord left the set-up position alone
22 position
#? [dvonn w move R,R,R,W,B,W,-.*]

# TZAAR random openings are written with POS
newgame tzaar random 7
30 printrecord
#? [\(;FF\[TZAAR\]VA\[RANDOM\]POS\[[abcABC]{60}\]SO\[https://www\.littlegolem\.net\]\)]

newgame tzaar
31 printrecord
#? [\(;FF\[TZAAR\]SO\[https://www\.littlegolem\.net\]\)]
