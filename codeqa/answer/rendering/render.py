"""Markdown that is safe to show: nothing in it can make a browser fetch a remote resource.

Generated answers, the extractive map and labels are all markdown, and all of them carry text an attacker can
control (a docstring, a file name, a model obeying an injected instruction). ``safe_markdown`` is the one gate
they pass before a UI renders them: images become text (``[image: alt — host]``), links to hosts other than this
machine (and the index's own web host) become ``text (host)``, raw HTML is shown as text. Only the blocks that
contain such things are rewritten, so ordinary answers render exactly as before, code blocks included. The
result is parsed again until no image or outside link is left (CommonMark, as the browser's renderer reads it).

Terminal escapes and control characters (an OSC-8 hyperlink, colours) are removed, and bare URLs to other hosts
get an invisible word joiner that keeps a GFM renderer (Streamlit's) from making them links (``inert_bare_urls``).

``escape_markdown`` and ``code_span`` embed repository text into markdown as text: no metacharacter in a name,
path or docstring can open an image, a link or a span, and no backtick can close the code span around it.
``chart_text`` does the same for chart labels, hover texts and legends (plotly reads ``<a href>``, ``<b>``… there).
"""

from __future__ import annotations

import html
import ipaddress
import re
from collections.abc import Iterable
from urllib.parse import urlparse

from markdown_it import MarkdownIt
from markdown_it.token import Token

from codeqa.answer.rendering.links import is_code_view_url

_PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_METACHARACTERS = re.compile(r"([\\`*_\[\]()<>!|~$&])")  # opens a span, link, image, HTML or entity
_BLOCK_START = re.compile(r"^(\d*)([-+#.])")  # a list item or a heading when a line starts with it
_LABEL = r"(?:[^\[\]\\\n]|\\.|\[(?:[^\[\]\\\n]|\\.)*\])*"  # link text: escapes and one level of nested brackets
_DESTINATION = r"(?:<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)"
_TITLE = r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?"
_INLINE_IMAGE = re.compile(rf"!\[(?P<alt>{_LABEL})\]\(\s*(?P<dest>{_DESTINATION}){_TITLE}\s*\)")
_REFERENCE_IMAGE = re.compile(rf"!\[(?P<alt>{_LABEL})\](?:\[(?P<ref>[^\[\]\n]*)\])?")
_INLINE_LINK = re.compile(rf"(?<![!\\])\[(?P<text>{_LABEL})\]\(\s*(?P<dest>{_DESTINATION}){_TITLE}\s*\)")
_AUTOLINK = re.compile(r"<(?P<dest>[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*)>")
_REFERENCE_DEFINITION = re.compile(r"^(\s{0,3})\[(?=[^\]\n]+\]:)", re.MULTILINE)
_ACTIVE_HTML = re.compile(
    r"<\s*/?\s*(?:img|image|svg|iframe|frame|link|style|video|audio|object|embed|source|picture|script|base|meta|form"
    r"|input|track|use|a)\b|\b(?:src|href|srcset|style|background|poster|action|data)\s*=",
    re.IGNORECASE,
)
_BARE_URL = re.compile(
    r"(?i)(?<![\w.+-])(?:(?P<scheme>https?)(?P<cut>:)//[^\s<>]*|www(?P<w>\.)[^\s<>]*"
    r"|[\w.+-]+(?P<at>@)[\w-]+(?:\.[\w-]+)+)"
)
_JOINER = "\u2060"
MAX_PASSES = 4
_ESCAPES = re.compile(
    r"(?:\x1b\]|\x9d)[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"  # OSC (hyperlinks, titles) to BEL or ST
    r"|(?:\x1b[P_^X]|[\x90\x98\x9e\x9f])[^\x1b\x9c\n]*(?:\x1b\\|\x9c)?"  # DCS, SOS, PM, APC
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"  # CSI (colours, cursor moves, erases)
    r"|\x1b[ -/]*[0-~]?"  # every other escape
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 but \t and \n, DEL, C1


def plain_text(text: str) -> str:
    """``text`` without terminal escapes and control characters (newlines and tabs kept)."""
    return _CONTROLS.sub("", _ESCAPES.sub("", text))


def escape_markdown(text: str) -> str:
    """``text`` shown literally, on one line: every markdown metacharacter (``! [ ] ( ) ` * _ < > …``) escaped."""
    escaped = _METACHARACTERS.sub(r"\\\1", " ".join(str(text).split()))
    return _BLOCK_START.sub(r"\1\\\2", escaped)


def chart_text(text: str) -> str:
    """``text`` for a plotly label, hover text or legend: shown literally (``<a href=…>`` is not a link there)."""
    return html.escape("".join(ch if ch.isprintable() else " " for ch in str(text)), quote=False)


def code_span(text: str) -> str:
    """``text`` as inline code whose backtick fence is longer than any backtick run inside it."""
    flat = " ".join(str(text).split())
    if not flat:
        return ""
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if "`" in (flat[0], flat[-1]) or (flat[0] == " " and flat[-1] == " ") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def code_fence(text: str) -> str:
    """A backtick fence for a code block around ``text`` that nothing inside can close (at least three)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def host_of(url: str) -> str:
    """Who a link or image would contact: its host, or what kind of reference it is."""
    url = url.strip().strip("<>").replace("\\", "/")  # browsers read http:\\host as http://host
    if url.lower().startswith("data:"):
        return "inline data"
    parsed = urlparse(url)
    if parsed.scheme and parsed.scheme.lower() not in ("http", "https"):
        return f"{parsed.scheme} link"
    if parsed.hostname:
        return parsed.hostname
    if parsed.scheme:  # http:host/path
        return parsed.path.lstrip("/").split("/")[0] or "unknown host"
    return "this page"


def is_local_url(url: str, allowed_hosts: Iterable[str] = (), *, code_links_only: bool = False) -> bool:
    """True for links that stay on this machine (relative, anchors, loopback) or go to an allowed host.

    With ``code_links_only`` the only relative links that pass are our own code-view links (``is_code_view_url``).
    """
    raw = url
    url = re.sub(r"[\t\n\r]", "", url).strip().strip("<>").replace("\\", "/")  # what a browser does to a URL
    if not url or url.startswith("#"):
        return True
    parsed = urlparse(url)
    if not parsed.scheme and not parsed.netloc:
        if code_links_only:
            return raw.strip() == url and is_code_view_url(url)
        return not url.startswith("//")  # a relative link on this app (//host is another host)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        return False
    host = parsed.hostname.lower()
    if host in {h.lower() for h in allowed_hosts} or host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _walk(tokens: Iterable[Token]) -> Iterable[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _walk(token.children)


def remote_references(markdown: str, allowed_hosts: Iterable[str] = ()) -> list[str]:
    """What would contact another host if ``markdown`` were rendered as is: ``image from host``/``link to host``."""
    allowed = tuple(allowed_hosts)
    found: list[str] = []
    for token in _walk(_PARSER.parse(markdown, {})):
        if token.type == "image":
            found.append(f"image from {host_of(str(token.attrs.get('src', '')))}")
        elif token.type == "link_open" and not is_local_url(str(token.attrs.get("href", "")), allowed):
            found.append(f"link to {host_of(str(token.attrs.get('href', '')))}")
        elif token.type in ("html_inline", "html_block") and _ACTIVE_HTML.search(token.content):
            found.append("raw HTML")
    return list(dict.fromkeys(found))


def _hostile_lines(markdown: str, allowed: tuple[str, ...], strict: bool = False) -> set[int]:
    """Line numbers of the blocks that hold an image, an outside link or raw HTML."""
    lines: set[int] = set()
    for token in _PARSER.parse(markdown, {}):
        if token.type == "html_block" and token.map and _ACTIVE_HTML.search(token.content):
            lines.update(range(*token.map))
        if token.type != "inline" or not token.map:
            continue
        for child in _walk(token.children or []):
            href = str(child.attrs.get("href", "")) if child.type == "link_open" else ""
            active_html = child.type == "html_inline" and _ACTIVE_HTML.search(child.content)
            outside = child.type == "link_open" and not is_local_url(href, allowed, code_links_only=strict)
            if child.type == "image" or active_html or outside:
                lines.update(range(*token.map))
                break
    return lines


def _image_text(match: re.Match[str]) -> str:
    alt = escape_markdown(re.sub(r"\\(.)", r"\1", match.group("alt")).strip()) or "no description"
    dest = match.groupdict().get("dest")
    where = f" — {escape_markdown(host_of(dest))}" if dest is not None else ""
    return f"\\[image: {alt}{where}\\]"


def _neutralize(line: str, allowed: tuple[str, ...], strict: bool = False) -> str:
    """One line of a hostile block, rewritten: images as text, outside links as ``text (host)``, HTML inert."""
    line = _INLINE_IMAGE.sub(_image_text, line)
    line = _REFERENCE_IMAGE.sub(_image_text, line)

    def link(match: re.Match[str]) -> str:
        dest = match.group("dest")
        if is_local_url(dest, allowed, code_links_only=strict):
            return match.group(0)
        return f"{match.group('text')} ({escape_markdown(host_of(dest))})"

    line = _INLINE_LINK.sub(link, line)

    def autolink(match: re.Match[str]) -> str:
        kept = is_local_url(match["dest"], allowed, code_links_only=strict)
        return match.group(0) if kept else escape_markdown(match["dest"])

    line = _AUTOLINK.sub(autolink, line)
    line = line.replace("<", "&lt;").replace("![", "!\\[")
    return _REFERENCE_DEFINITION.sub(r"\1\\[", line)


def inert_bare_urls(markdown: str, allowed_hosts: Iterable[str] = ()) -> str:
    """``markdown`` whose bare URLs (``https://host/…``, ``www.host``, ``name@host``) to other hosts stay text: a
    word joiner (U+2060, invisible) inside ``https://``, after ``www`` or after ``@`` keeps a GFM renderer (the app's)
    from turning them into links. Code blocks are left alone; markdown links were made safe by ``safe_markdown``."""
    if not _BARE_URL.search(markdown):
        return markdown
    allowed = tuple(allowed_hosts)
    blocks = [token.map for token in _PARSER.parse(markdown, {}) if token.type in ("fence", "code_block")]
    code = {number for block in blocks if block for number in range(*block)}

    def inert(match: re.Match[str]) -> str:
        found = match.group(0)
        url = found if match["scheme"] else f"http://{found.split('@')[-1]}"
        if is_local_url(url, allowed):
            return found
        cut = match.start("cut" if match["cut"] else "w" if match["w"] else "at") - match.start()
        return found[:cut] + _JOINER + found[cut:]  # https⁠://, www⁠., name⁠@host

    lines = markdown.split("\n")
    for number, line in enumerate(lines):
        if number not in code:
            lines[number] = _BARE_URL.sub(inert, line)
    return "\n".join(lines)


def safe_markdown(markdown: str, allowed_hosts: Iterable[str] = (), *, code_links_only: bool = False,
                  bare_urls: bool = False) -> str:  # fmt: skip
    """``markdown`` that renders the same, except that nothing in it can load or link to another host.

    ``code_links_only`` (answers in the app): relative links pass only when they are our code-view links.
    ``bare_urls``: leave bare URLs as they are (``inert_bare_urls`` is for a renderer that autolinks them).
    Terminal escapes and control characters are removed first (``plain_text``).
    """
    text = _safe_markdown(plain_text(str(markdown)), tuple(allowed_hosts), code_links_only)
    return text if bare_urls else inert_bare_urls(text, allowed_hosts)


def _safe_markdown(text: str, allowed: tuple[str, ...], strict: bool) -> str:
    for attempt in range(MAX_PASSES):
        hostile = _hostile_lines(text, allowed, strict)
        if not hostile:
            return text
        lines = text.split("\n")
        for number in hostile:
            if number < len(lines):
                line = lines[number]
                lines[number] = _neutralize(line, allowed, strict) if attempt < 2 else escape_markdown(line)
        text = "\n".join(lines)
    if _hostile_lines(text, allowed, strict):  # cannot happen with the rules above; never render what failed them
        return escape_markdown(text)
    return text


def link_hosts(*urls: str | None) -> tuple[str, ...]:
    """The hosts of trusted links (e.g. the index's GitHub page), for ``allowed_hosts``."""
    return tuple(host for url in urls if url and (host := urlparse(url).hostname))
