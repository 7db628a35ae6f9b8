"""The terminal table of ``gameweave play``, region by region: :mod:`.screen` (the
terminal, cards and the screen before each decision), :mod:`.asker` (the person's input
for one decision), :mod:`.deal` (one deal), :mod:`.match` (the whole match and its
words) and :mod:`.record` (the record of the finished deals).  The words for choices and
events come from the narrator, :mod:`gameweave.tables.words`."""
