"""The project stands on its own: no file cites a document the repository does not contain
(the design is docs/design.md, the rules docs/rules/)."""

from __future__ import annotations

import re
import subprocess

from tests.conftest import ROOT

MISSING = re.compile(r"DESIGN\.md|notes/(?:style|stack)\.md|\.\./shared|shared/(?:rules|seeds|notes)")
CITED_DOC = re.compile(r"docs/[\w./-]+\.md")


def tracked_text_files():
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in names:
        path = ROOT / name
        if path.suffix in {".py", ".md", ".html", ".js", ".css", ".yml", ".txt", ".conf", ".example", ""} and path.is_file():
            try:
                yield name, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


def test_no_file_cites_a_document_the_repository_lacks():
    problems = []
    for name, text in tracked_text_files():
        if name == "tests/test_references.py":
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if MISSING.search(line):
                problems.append(f"{name}:{number}: {line.strip()[:100]}")
            for cited in CITED_DOC.findall(line):
                if not (ROOT / cited.rstrip(".")).exists():
                    problems.append(f"{name}:{number}: {cited} does not exist")
    assert not problems, "\n".join(problems[:20])
