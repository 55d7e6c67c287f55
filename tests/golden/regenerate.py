"""Write the golden playthroughs again: ``python -m tests.golden.regenerate [--fresh] [name ...]``.

Run it from the repository's root after a change to what the screens show that you mean, and
read the diff of ``tests/golden/*.txt`` before committing it: it is what players will see
differently.  Each file's recorded actions are replayed while they still make a whole game, so
a change of words rewrites only words; a change of rules that refuses a recorded action (or
``--fresh``) records a new game of the seeded random player.  Names pick some games (see
``playbook.GAMES``); none: all of them.
"""

from __future__ import annotations

import os
import sys


def setup_django() -> None:
    """Django as the tests run it (tests/conftest.py): the screens' templates need it."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafiagames.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}


def main(argv: list[str]) -> int:
    setup_django()
    from tests.golden.playbook import GAMES, hosting, record

    fresh = "--fresh" in argv
    names = [arg for arg in argv if not arg.startswith("--")]
    unknown = set(names) - {game.name for game in GAMES}
    if unknown:
        print(f"no golden game called {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    for game in GAMES:
        if names and game.name not in names:
            continue
        with hosting(game):
            text, how = record(game, fresh)
        old = game.path.read_text(encoding="utf-8") if game.path.exists() else None
        game.path.write_text(text, encoding="utf-8")
        state = "unchanged" if text == old else "written"
        print(f"{game.path.name}: {state} ({how}, {len(text) // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
