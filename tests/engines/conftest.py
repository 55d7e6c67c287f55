"""Engine tests need neither Django nor a database.

The helper modules next to this file (``mafie_helpers``, ``playthrough``, ``knowledge``) are
imported by plain name; putting this folder on ``sys.path`` makes that work under every pytest
import mode (this folder deliberately has no ``__init__.py``: ``tests.engines`` would shadow the
real ``engines`` package).
"""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
