"""The protocol layer: text in, replies out.

gtp frames lines and replies; serving reads ahead and interrupts; commands is the table that
server, search_commands and record_commands fill with their handlers; arguments and options
turn argument text into values or a `?` reply.  Below it the rules decide every move
(engine/games) and the search suggests them (engine/search.py).
"""
