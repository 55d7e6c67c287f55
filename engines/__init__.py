"""Pure rules engines: no Django, no clock, no global random, no I/O (docs/design.md §3)."""
