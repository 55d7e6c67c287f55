"""What an update frame carries for one fragment that changed: the smallest element that did.

A screen is made of fragments (rendering.py), each sent whole whenever its HTML changed.  Most
taps change one short line of a big fragment: a vote turns one badge of the TV's roster from
"…" into "voted" and "Waiting for 4 more" into "Waiting for 3 more" on the phones that voted,
and a whole panel or roster (1–2 KB) went out for it (docs/performance.md, "Fan-out, issue 28").

``update(fragment_id, old, new)`` finds where ``old`` and ``new`` differ (their common prefix
and suffix) and the innermost element of ``new`` that holds the whole difference.  If ``old``
holds exactly one element in the same place (the same text before and after it), that element
is sent on its own, told where to go by its path from the fragment::

    <p hx-swap-oob="outerHTML:#ph-panel&gt;:nth-child(2)&gt;:nth-child(4)" class="done big">…</p>

htmx swaps it by that CSS selector (``:nth-child`` counts elements only, as the path here
does).  Anything else is sent whole, as before.  The frame holds nothing the screen's own new
fragment does not: privacy is unchanged (it is this socket's own rendering, cut shorter).

A path in the markup is a path in the page only where the browser builds the tree the markup
says.  So the fragment goes whole (``None`` from ``_tree``) if either version has anything the
HTML parser would rebuild: an unclosed or stray end tag, a block inside a ``<p>``, a nested
``<a>``, ``<form>``, ``<button>`` or ``<li>``.  An element inside a ``<table>`` (the parser adds
``<tbody>``) or an ``<svg>`` (a part parsed alone would leave SVG's namespace) is never sent
alone: its table or svg is.
"""

from __future__ import annotations

import re

# A start tag, an end tag or a comment.  Our templates escape every value they print, so no
# attribute holds a raw ">" (Django's autoescape) and no text a raw "<".
TOKEN = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^>]*?)?(/?)>", re.S)
VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
# Elements whose start tag closes an open <p> (the HTML parser's "closes a p element").
CLOSES_P = frozenset("address article aside blockquote details dialog div dl fieldset figcaption figure footer "
                     "form h1 h2 h3 h4 h5 h6 header hgroup hr main menu nav ol p pre section table ul".split())
NO_NESTING = frozenset(("a", "form", "button", "li", "p"))
# Never swapped on their own: their descendants (the parser's <tbody>; SVG's namespace).
OPAQUE = frozenset(("table", "svg"))
# Raw text: a "<" inside is text, which this tokenizer does not know.
RAW = frozenset(("script", "style", "textarea", "title"))


def _scan(html: str, changed_from: int = 0, changed_to: int = 0, exact: bool = False) -> tuple[bool, tuple | None]:
    """One pass over the tags of ``html`` (one fragment: one root element; ``exact``: nothing
    before or after it).  Whether the browser builds the tree the markup says, and the innermost
    element that holds
    ``html[changed_from:changed_to]`` and may be swapped alone: (start, end, path), the path in
    1-based element-child indices from the root; None for the root itself or none found."""
    # Open elements, each [tag, start, index among its parent's elements, children so far, opaque
    # inside]; and how many of each tag that must not nest are open.
    stack: list[list] = []
    nested = dict.fromkeys(NO_NESTING, 0)
    roots = 0
    found = None
    root_end = -1
    for match in TOKEN.finditer(html):
        closing, tag, self_closing = match.groups()
        if tag is None:
            continue   # a comment
        if tag in RAW:
            return False, None
        if closing:
            if not stack or stack[-1][0] != tag:
                return False, None   # a stray or misnested end tag
            name, start, index, _children, _hidden = stack.pop()
            if name in nested:
                nested[name] -= 1
            if not stack:
                root_end = match.end()
            if (found is None and start <= changed_from and changed_to <= match.end() and stack
                    and not stack[-1][4]):
                found = (start, match.end(), (*(entry[2] for entry in stack[1:]), index))
            continue
        if stack:
            parent = stack[-1]
            parent[3] += 1
            index, hidden = parent[3], parent[4]
        else:
            roots += 1
            if roots > 1:
                return False, None
            index, hidden = 0, False
        if not hidden and ((tag in CLOSES_P and nested["p"]) or nested.get(tag)):
            return False, None   # the parser would close the open one first
        if tag in VOID or (self_closing and hidden):   # "<path/>" in an svg
            if found is None and match.start() <= changed_from and changed_to <= match.end() and not hidden:
                found = (match.start(), match.end(), (*(entry[2] for entry in stack[1:]), index))
            continue
        if self_closing:
            return False, None   # "<div/>": HTML ignores the slash and leaves it open
        if tag in nested:
            nested[tag] += 1
        stack.append([tag, match.start(), index, 0, hidden or tag in OPAQUE])
    valid = not stack and roots == 1 and (not exact or (html.startswith("<") and root_end == len(html)))
    return valid, found


# Verdicts of _scan on fragments seen lately: a fragment's new HTML is the next update's old.
_valid: dict[str, bool] = {}
VALID_KEPT = 4096


def _is_valid(html: str) -> bool:
    verdict = _valid.get(html)
    if verdict is None:
        if len(_valid) >= VALID_KEPT:
            _valid.clear()
        verdict = _valid[html] = _scan(html)[0]
    return verdict


def _common(old: str, new: str) -> tuple[int, int]:
    """Lengths of the common prefix and suffix of ``old`` and ``new``, not overlapping: found by
    halving, each step one comparison of slices in C (a loop over characters costs ~100 µs)."""
    limit = min(len(old), len(new))
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if old[:middle] == new[:middle]:
            low = middle
        else:
            high = middle - 1
    prefix = low
    low, high = 0, limit - prefix
    while low < high:
        middle = (low + high + 1) // 2
        if old[len(old) - middle:] == new[len(new) - middle:]:
            low = middle
        else:
            high = middle - 1
    return prefix, low


def update(fragment_id: str, old: str | None, new: str) -> str:
    """What to send so that a screen showing ``old`` for ``fragment_id`` shows ``new``."""
    if not old or old == new:
        return new
    prefix, suffix = _common(old, new)
    valid, element = _scan(new, prefix, len(new) - suffix)
    if len(_valid) >= VALID_KEPT:
        _valid.clear()
    _valid[new] = valid
    if not valid or element is None or not _is_valid(old):
        return new   # the root (the whole fragment), or markup the browser would build otherwise
    start, end, path = element
    tail = len(new) - end
    # The same place in ``old`` must hold exactly one element (else siblings moved: a path would
    # name another); the text around it is the same (common prefix and suffix).
    if not _scan(old[start:len(old) - tail], exact=True)[0]:
        return new
    # ">" written as "&gt;" (the browser reads the attribute as ">"): a tool that finds tags with
    # a regex ("<[^>]*>") is not cut short by it.
    selector = f"#{fragment_id}&gt;" + "&gt;".join(f":nth-child({i})" for i in path)
    tag_end = start + 1 + len(TOKEN.match(new, start).group(2))
    return f'{new[start:tag_end]} hx-swap-oob="outerHTML:{selector}"{new[tag_end:end]}'
