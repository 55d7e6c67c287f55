"""Pure rules engines: no Django, no clock, no global random, no I/O (DESIGN.md §3)."""
