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
says.  So the fragment goes whole if either version has anything the HTML parser would
rebuild (``_scan``): an unclosed or stray end tag, a block inside a ``<p>``, a nested ``<a>``,
``<form>``, ``<button>`` or ``<li>``.  An element inside a ``<table>`` (the parser adds
``<tbody>``) or an ``<svg>`` (a part parsed alone would leave SVG's namespace) is never sent
alone: its table or svg is.

Cost: each distinct change is worked out once per room version (consumers.py keeps it in the
version's memo).  A fragment's scan is kept (``_scanned``): its new HTML is the next change's
old.  A change of text or attributes only (a count, a badge) derives the new scan from the old
(``_same_tags``) instead of reading the new HTML again: ~35 µs a change in-process, against the
~50 µs a scan of a 1.2 KB fragment costs.
"""

from __future__ import annotations

import re

# A start tag, an end tag or a comment.  Our templates escape every value they print, so no
# attribute holds a raw ">" (Django's autoescape) and no text a raw "<".
TOKEN = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*>|<!--.*?-->", re.S)
VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
# Elements whose start tag closes an open <p> (the HTML parser's "closes a p element").
CLOSES_P = frozenset("address article aside blockquote details dialog div dl fieldset figcaption figure footer "
                     "form h1 h2 h3 h4 h5 h6 header hgroup hr main menu nav ol p pre section table ul".split())
NO_NESTING = frozenset(("a", "form", "button", "li", "p"))
# Never swapped on their own: their descendants (the parser's <tbody>; SVG's namespace).
OPAQUE = frozenset(("table", "svg"))
# Raw text: a "<" inside is text, which this tokenizer does not know.
RAW = frozenset(("script", "style", "textarea", "title"))


def _scan(html: str, exact: bool = False) -> tuple[bool, list]:
    """One pass over the tags of ``html`` (one fragment: one root element; ``exact``: nothing
    before or after it): whether the browser builds the tree the markup says, and every element
    below the root, innermost first (in the order they end), as (start, end, path, eligible):
    its path in 1-based element-child indices from the root, and whether it may be swapped alone
    (not inside a table or an svg).  Every tap runs this over what it changed: kept lean."""
    if any(f"<{tag}" in html for tag in RAW):
        return False, []
    # Open elements, each [tag, start, index among its parent's elements, children so far, opaque
    # inside]; and how many of each tag that must not nest are open.
    stack: list[list] = []
    nested = dict.fromkeys(NO_NESTING, 0)
    roots = 0
    root_end = -1
    elements: list[tuple] = []
    for match in TOKEN.finditer(html):
        closing, tag = match.groups()
        if closing:
            if not stack or stack[-1][0] != tag:
                return False, []   # a stray or misnested end tag
            name, start, index, _children, _hidden = stack.pop()
            if name in nested:
                nested[name] -= 1
            if stack:
                elements.append((start, match.end(), (*(entry[2] for entry in stack[1:]), index), not stack[-1][4]))
            else:
                root_end = match.end()
            continue
        if tag is None:
            continue   # a comment
        if stack:
            parent = stack[-1]
            parent[3] += 1
            index, hidden = parent[3], parent[4]
            if not hidden and ((tag in CLOSES_P and nested["p"]) or nested.get(tag)):
                return False, []   # the parser would close the open one first
        else:
            roots += 1
            if roots > 1:
                return False, []
            index, hidden = 0, False
        if tag in VOID or (hidden and html[match.end() - 2] == "/"):   # "<path/>" in an svg
            if stack:
                elements.append((match.start(), match.end(), (*(entry[2] for entry in stack[1:]), index), not hidden))
            continue
        if html[match.end() - 2] == "/":
            return False, []   # "<div/>": HTML ignores the slash and leaves it open
        if tag in nested:
            nested[tag] += 1
        stack.append([tag, match.start(), index, 0, hidden or tag in OPAQUE])
    valid = not stack and roots == 1 and (not exact or (html.startswith("<") and root_end == len(html)))
    return valid, elements


# The scans of fragments seen lately (a fragment's new HTML is the next update's old), oldest
# dropped first: ~5 KB each, a few per room and version.
_scans: dict[str, tuple[bool, list]] = {}
SCANS_KEPT = 2048


def _scanned(html: str, made: tuple[bool, list] | None = None) -> tuple[bool, list]:
    """``_scan(html)``, or ``made`` (the same, derived), kept for the next update."""
    found = _scans.get(html)
    if found is None:
        if len(_scans) >= SCANS_KEPT:
            del _scans[next(iter(_scans))]
        found = _scans[html] = made or _scan(html)
    return found


# Where a tag's name may go on: a change starting there could rename the tag.
IN_TAG_NAME = re.compile(r"</?[a-zA-Z0-9-]*$")


def _same_tags(old: str, new: str, prefix: int, suffix: int) -> tuple[bool, list] | None:
    """If ``old`` and ``new`` differ only in text or inside one tag's attributes (no tag added,
    removed or renamed), ``new``'s scan from ``old``'s: the same elements, those after the change
    moved by the difference in length.  None otherwise (``new`` is scanned)."""
    changed_old, changed_new = old[prefix:len(old) - suffix], new[prefix:len(new) - suffix]
    if "<" in changed_old or "<" in changed_new:
        return None
    if ">" in changed_old + changed_new and "/" in changed_old + changed_new:
        return None   # might make a tag self-closing, or not
    if IN_TAG_NAME.search(old, max(0, old.rfind("<", 0, prefix)), prefix):
        return None
    valid, elements = _scanned(old)
    cut, delta = len(old) - suffix, len(new) - len(old)
    moved = []
    for start, end, path, eligible in elements:
        if prefix < end < cut:
            return None   # a void element's end inside the change: its attributes changed
        # What starts where the change ends moves; what ends where it begins stays.
        moved.append((start + delta if start >= cut else start, end + delta if end > prefix else end, path, eligible))
    return valid, moved


def _common(old: str, new: str) -> tuple[int, int]:
    """Lengths of the common prefix and suffix of ``old`` and ``new``, not overlapping: found by
    halving what is left, each step one comparison of slices in C (a loop over characters
    costs ~100 µs a fragment), the slices halving too (a TV's roster is 10 KB)."""
    limit = min(len(old), len(new))
    low, high = 0, limit
    while low < high:   # old[:low] == new[:low]; they differ before ``high``, or at it
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    prefix = low
    low, high = 0, limit - prefix
    ends_old, ends_new = len(old), len(new)
    while low < high:
        middle = (low + high + 1) // 2
        if old[ends_old - middle:ends_old - low] == new[ends_new - middle:ends_new - low]:
            low = middle
        else:
            high = middle - 1
    return prefix, low


def update(fragment_id: str, old: str | None, new: str) -> str:
    """What to send so that a screen showing ``old`` for ``fragment_id`` shows ``new``."""
    if not old or old == new:
        return new
    if not _scanned(old)[0]:
        return new   # markup the browser builds otherwise: no path is sure
    prefix, suffix = _common(old, new)
    valid, elements = _scanned(new, _same_tags(old, new, prefix, suffix))
    changed_from, changed_to = prefix, len(new) - suffix
    # The innermost element holding the change (elements come innermost first).
    element = next((e for e in elements if e[0] <= changed_from and changed_to <= e[1] and e[3]), None)
    if not valid or element is None:
        return new   # the root (the whole fragment), or markup the browser would build otherwise
    start, end, path, _eligible = element
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
