"""The README is the short first page; the reference lives in docs/, and every link between them resolves.

Relative links (and images) of README.md and docs/*.md must name an existing file, and an anchor
(``page.md#section``) a heading of that page, with GitHub's heading anchors.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """The text without fenced code blocks and inline code, where brackets are not links."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a Markdown page's headings: lower case, punctuation dropped, spaces to '-'."""
    seen: dict[str, int] = {}
    out = set()
    for line in _prose(page.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"#{1,6} (.+)", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def relative_links(page: Path) -> list[str]:
    return [t for t in LINK.findall(_prose(page.read_text(encoding="utf-8"))) if not re.match(r"[a-z]+:", t)]


def _show(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.is_file():
            broken.append(f"{target}: no file {_show(dest)}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with anchor #{anchor} in {_show(dest)}")
    return broken


def test_the_readme_is_a_first_page_of_at_most_200_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 200, f"README.md has {lines} lines; move reference text to a page of docs/"


def test_every_relative_link_of_the_readme_and_docs_resolves():
    broken = {p.relative_to(ROOT).as_posix(): b for p in PAGES if (b := broken_links(p))}
    assert not broken


def test_every_docs_page_is_linked_from_the_readme():
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in relative_links(ROOT / "README.md")}
    assert [p.name for p in PAGES[1:] if p.resolve() not in linked] == []


def test_the_link_checker_finds_a_missing_file_and_a_missing_anchor(tmp_path):
    (tmp_path / "b.md").write_text("# Title\n\n## Quick start (two commands)\n\n```\n# not a heading\n```\n")
    page = tmp_path / "a.md"
    page.write_text(
        "[ok](b.md#quick-start-two-commands) [top](#a) `[code](x.md)` [web](https://example.org/x.md)\n"
        "[gone](missing.md) [no anchor](b.md#not-a-heading)\n\n# A\n"
    )
    assert anchors(tmp_path / "b.md") == {"title", "quick-start-two-commands"}
    assert [b.split(":")[0] for b in broken_links(page)] == ["missing.md", "b.md#not-a-heading"]
