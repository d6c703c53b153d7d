"""The protocol layer: text in, replies out.

gtp frames lines and replies; serving reads ahead and interrupts; server, search_commands and
record_commands each end with their table of commands, which server joins into one (commands);
analysis_lines writes and reads the analysis lines; diagnostics writes to stderr; arguments and
options turn argument text into values or a `?` reply.  Below it the rules decide every move
(engine/games) and the search suggests them (engine/search.py).
"""
