"""From HTML to the readable text of a page, as Markdown or plain text.

The stdlib parser builds a small tree (forgiving of unclosed tags, bounded in
depth); the readable part is the page's ``<main>``, its only ``<article>``, or
else its ``<body>``, without scripts, navigation, asides, footers and hidden
elements. Headings, paragraphs, lists, links, code blocks, quotes and tables
keep their shape in Markdown; plain text keeps the same blocks without markup.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin

MAX_DEPTH = 200
VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
SKIPPED = frozenset("script style noscript template svg math canvas iframe object embed head button select option textarea input audio video map".split())
BOILERPLATE = frozenset("nav aside footer".split())
BOILERPLATE_ROLES = frozenset("navigation banner contentinfo complementary search".split())
BLOCK = frozenset(
    "address article aside blockquote body dd details dialog div dl dt fieldset figcaption figure footer form "
    "h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section summary table tbody thead tfoot tr td th ul".split()
)
# A new one of these closes an open one of the same family (``<li>a<li>b``, ``<p>a<p>b``).
CLOSES = {"li": {"li"}, "dt": {"dt", "dd"}, "dd": {"dt", "dd"}, "tr": {"tr", "td", "th"}, "td": {"td", "th"}, "th": {"td", "th"}, "p": {"p"}}
CLOSES_P = BLOCK - {"body", "html", "li", "td", "th", "tr", "dd", "dt"}
_SPACE = re.compile(r"\s+")
_BOUNDARIES = frozenset("ul ol table dl div section article blockquote td th li".split())


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.stack = [self.root]
        self.title_parts: list[str] = []
        self.meta_title: str | None = None
        self.base_href: str | None = None
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: (v or "") for k, v in attrs}
        if tag == "title":
            self._in_title = True
        elif tag == "base" and self.base_href is None and values.get("href"):
            self.base_href = values["href"]
        elif tag == "meta" and values.get("property", values.get("name", "")).lower() in ("og:title", "twitter:title"):
            self.meta_title = self.meta_title or values.get("content") or None
        self._close_implied(tag)
        node = Node(tag, values)
        self.stack[-1].children.append(node)
        if tag not in VOID and len(self.stack) < MAX_DEPTH:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack[-1].tag == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_parts.append(data)
            return
        self.stack[-1].children.append(data)

    def _close_implied(self, tag: str) -> None:
        closes = CLOSES.get(tag, set()) | ({"p"} if tag in CLOSES_P else set())
        if not closes:
            return
        outermost = None
        for i in range(len(self.stack) - 1, 0, -1):
            open_tag = self.stack[i].tag
            if open_tag in closes:
                outermost = i
            elif open_tag in _BOUNDARIES:
                break  # an item never closes across its own container
        if outermost is not None:
            del self.stack[outermost:]


@dataclass(frozen=True)
class Page:
    title: str | None
    content: str


def _hidden(node: Node) -> bool:
    a = node.attrs
    style = a.get("style", "").replace(" ", "").lower()
    return "hidden" in a or a.get("aria-hidden") == "true" or "display:none" in style or "visibility:hidden" in style


def _find(node: Node, want) -> list[Node]:
    """The outermost descendants for which ``want`` holds, in document order (skipped elements excluded)."""
    found: list[Node] = []
    todo = [c for c in reversed(node.children) if isinstance(c, Node)]
    while todo:
        current = todo.pop()
        if current.tag in SKIPPED:
            continue
        if want(current):
            found.append(current)
            continue
        todo.extend(c for c in reversed(current.children) if isinstance(c, Node))
    return found


def _text_length(node: Node) -> int:
    return sum(len(c.strip()) if isinstance(c, str) else _text_length(c) for c in node.children if not (isinstance(c, Node) and c.tag in SKIPPED))


def readable_root(root: Node) -> Node:
    """The part of the page worth reading: ``<main>``, the only ``<article>``, or the body."""
    body = (_find(root, lambda n: n.tag == "body") or [root])[0]
    mains = _find(body, lambda n: n.tag == "main" or n.attrs.get("role") == "main")
    articles = _find(body, lambda n: n.tag == "article")
    candidate = mains[0] if len(mains) == 1 else articles[0] if len(articles) == 1 else None
    # A tiny main (a shell filled in by scripts) is worse than the whole body.
    if candidate is not None and _text_length(candidate) * 4 >= min(_text_length(body), 800):
        return candidate
    return body


class _Renderer:
    def __init__(self, base_url: str, markdown: bool):
        self.base_url = base_url
        self.markdown = markdown

    def skip(self, node: Node, in_content: bool) -> bool:
        if node.tag in SKIPPED or _hidden(node):
            return True
        boiler = node.tag in BOILERPLATE or node.attrs.get("role") in BOILERPLATE_ROLES
        return boiler or (node.tag == "header" and not in_content)

    def blocks(self, node: Node, in_content: bool = False) -> list[str]:
        out: list[str] = []
        run: list[str] = []
        for child in node.children:
            if isinstance(child, Node) and child.tag in BLOCK:
                self._flush(run, out)
                if not self.skip(child, in_content):
                    out.extend(self.block(child, in_content or child.tag in ("main", "article")))
            elif isinstance(child, str) or not self.skip(child, in_content):
                run.append(self.inline(child))
        self._flush(run, out)
        return out

    @staticmethod
    def _flush(run: list[str], out: list[str]) -> None:
        text = re.sub(r" *\n *", "\n", re.sub(r"[ \t]{2,}", " ", "".join(run))).strip()
        run.clear()
        if text:
            out.append(text)

    def block(self, node: Node, in_content: bool) -> list[str]:
        tag, md = node.tag, self.markdown
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            text = _SPACE.sub(" ", self.inline_children(node)).strip()
            return [("#" * int(tag[1]) + " " + text) if md else text] if text else []
        if tag in ("ul", "ol"):
            return self.list_block(node, in_content)
        if tag == "pre":
            text = _raw_text(node).strip("\n")
            return [f"```\n{text}\n```" if md else text] if text.strip() else []
        if tag == "blockquote":
            inner = "\n\n".join(self.blocks(node, in_content))
            return ["\n".join(("> " + line).rstrip() for line in inner.splitlines())] if md and inner else [inner] if inner else []
        if tag == "table":
            return self.table(node)
        if tag == "hr":
            return ["---"] if md else []
        return self.blocks(node, in_content)

    def list_block(self, node: Node, in_content: bool) -> list[str]:
        lines: list[str] = []
        number = 0
        for child in node.children:
            if isinstance(child, str):
                if child.strip():
                    lines.append("- " + _SPACE.sub(" ", child).strip())
                continue
            if self.skip(child, in_content):
                continue
            number += 1
            marker = f"{number}. " if node.tag == "ol" else "- "
            body = "\n".join(self.blocks(child, in_content)) if child.tag == "li" else "\n".join(self.block(child, in_content) if child.tag in BLOCK else [self.inline(child).strip()])
            if body.strip():
                head, *rest = body.strip().splitlines()
                lines.append(marker + head + "".join("\n" + " " * len(marker) + line for line in rest))
        return ["\n".join(lines)] if lines else []

    def table(self, node: Node) -> list[str]:
        rows = []
        for tr in _find(node, lambda n: n.tag == "tr"):
            cells = [_SPACE.sub(" ", self.inline_children(c)).strip().replace("|", "\\|" if self.markdown else "|") for c in tr.children if isinstance(c, Node) and c.tag in ("td", "th")]
            if any(cells):
                rows.append(cells)
        if not rows:
            return []
        if not self.markdown:
            return ["\n".join(" | ".join(r) for r in rows)]
        width = max(len(r) for r in rows)
        lines = ["| " + " | ".join(r + [""] * (width - len(r))) + " |" for r in rows]
        lines.insert(1, "|" + " --- |" * width)
        return ["\n".join(lines)]

    def inline_children(self, node: Node) -> str:
        return "".join(self.inline(c) for c in node.children)

    def inline(self, node: Node | str) -> str:
        if isinstance(node, str):
            return _SPACE.sub(" ", node)
        if node.tag in SKIPPED or _hidden(node):
            return ""
        if node.tag == "br":
            return "\n"
        if node.tag == "img":
            alt = _SPACE.sub(" ", node.attrs.get("alt", "")).strip()
            return f" ![{alt}]({urljoin(self.base_url, node.attrs.get('src', ''))}) " if self.markdown and alt and node.attrs.get("src") else ""
        text = self.inline_children(node)
        if node.tag in BLOCK:
            return f" {text} "
        if not self.markdown or not text.strip():
            return text
        return _decorate(node, text, self.base_url)


def _decorate(node: Node, text: str, base_url: str) -> str:
    lead, core, trail = text[: len(text) - len(text.lstrip())], text.strip(), text[len(text.rstrip()) :]
    if node.tag == "a":
        href = node.attrs.get("href", "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
            return text
        return f"{lead}[{core}]({urljoin(base_url, href)}){trail}"
    marks = {"strong": "**", "b": "**", "em": "*", "i": "*", "code": "`", "kbd": "`", "samp": "`", "del": "~~", "s": "~~"}
    mark = marks.get(node.tag)
    return f"{lead}{mark}{core}{mark}{trail}" if mark else text


def _raw_text(node: Node) -> str:
    return "".join(c if isinstance(c, str) else ("\n" if c.tag == "br" else _raw_text(c)) for c in node.children)


def parse_html(markup: str) -> _TreeBuilder:
    builder = _TreeBuilder()
    builder.feed(markup)
    builder.close()
    return builder


def html_to_page(markup: str, base_url: str, *, markdown: bool = True) -> Page:
    """The title and readable content of an HTML page; links resolve against ``base_url`` (or ``<base href>``)."""
    builder = parse_html(markup)
    base = urljoin(base_url, builder.base_href) if builder.base_href else base_url
    readable = readable_root(builder.root)
    in_content = readable.tag in ("main", "article") or readable.attrs.get("role") == "main"
    content = "\n\n".join(_Renderer(base, markdown).blocks(readable, in_content=in_content))
    return Page(title=_title(builder), content=re.sub(r"\n{3,}", "\n\n", content).strip())


def _title(builder: _TreeBuilder) -> str | None:
    title = _SPACE.sub(" ", "".join(builder.title_parts)).strip() or (builder.meta_title or "").strip()
    if not title:
        headings = _find(builder.root, lambda n: n.tag == "h1")
        title = _SPACE.sub(" ", _raw_text(headings[0])).strip() if headings else ""
    return title or None


def page_title(markup: str) -> str | None:
    """The page's ``<title>``, else its ``og:title``, else its first ``<h1>``; ``None`` if it has none."""
    return _title(parse_html(markup))


def strip_tags(fragment: str) -> str:
    """Plain text of an HTML fragment (a search snippet with ``<strong>`` marks), whitespace collapsed."""
    if "<" not in fragment:
        return _SPACE.sub(" ", html.unescape(fragment)).strip()
    return _SPACE.sub(" ", _raw_text(parse_html(fragment).root)).strip()


def looks_like_html(text: str) -> bool:
    head = text[:1024].lstrip().lower()
    return head.startswith(("<!doctype html", "<html", "<head", "<body")) or "<html" in head
