"""Golden playthroughs: recorded games with every screen as text (tests/golden/playbook.py)."""
