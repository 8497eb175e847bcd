"""Every URL pattern of the site, filled with plausible and hostile values.

``routes()`` walks ``get_resolver().url_patterns`` recursively (namespaces, included
URLconfs, the admin's regex patterns); ``paths(route, values)`` fills each path
parameter in turn with each candidate value (the others keep a plausible one) and
percent-encodes it, so the scan reaches every view with ids of other users' matches and
tables, huge numbers, NUL, unicode, very long and path-like strings."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

_ROUTE_PARAM = re.compile(r"<(?:(?P<conv>[^>:]+):)?(?P<name>\w+)>")
_REGEX_PARAM = re.compile(r"\(\?P<(?P<name>\w+)>(?P<body>(?:[^()]|\([^()]*\))*)\)")


@dataclass(frozen=True)
class Route:
    template: str  # e.g. "lobby/tables/{table_id}/join/"
    params: tuple  # ((name, converter or "regex:<body>"), ...)
    name: str  # "lobby:join", "" when unnamed

    def __str__(self) -> str:
        return self.name or self.template


def _pattern_text(pattern) -> tuple[str, list]:
    """A pattern as a template with ``{name}`` holes, and its parameters."""
    if isinstance(pattern, RoutePattern):
        raw = str(pattern)
        params = [(m["name"], m["conv"] or "str") for m in _ROUTE_PARAM.finditer(raw)]
        return _ROUTE_PARAM.sub(lambda m: "{" + m["name"] + "}", raw), params
    if isinstance(pattern, RegexPattern):
        raw = pattern.regex.pattern
        params = [(m["name"], "regex:" + m["body"]) for m in _REGEX_PARAM.finditer(raw)]
        text = _REGEX_PARAM.sub(lambda m: "{" + m["name"] + "}", raw)
        text = text.lstrip("^").rstrip("$").replace("\\Z", "").replace("\\", "")
        return text, params
    raise TypeError(pattern)


def routes(patterns=None, prefix: str = "", params: tuple = (), namespace: str = ""):
    patterns = get_resolver().url_patterns if patterns is None else patterns
    for p in patterns:
        text, found = _pattern_text(p.pattern)
        if isinstance(p, URLResolver):
            ns = namespace
            if p.namespace:
                ns = f"{namespace}:{p.namespace}" if namespace else p.namespace
            yield from routes(p.url_patterns, prefix + text, params + tuple(found), ns)
        elif isinstance(p, URLPattern):
            name = f"{namespace}:{p.name}" if namespace and p.name else (p.name or "")
            yield Route(prefix + text, params + tuple(found), name)


def paths(route: Route, values) -> list[str]:
    """``values(name, converter)`` gives the candidates of one parameter, the first of
    them plausible.  One path with every first candidate, then one per other candidate
    of each parameter."""
    options = {name: [str(v) for v in values(name, conv)] for name, conv in route.params}
    base = {name: opts[0] for name, opts in options.items()}
    out = [_fill(route.template, base)]
    for name, opts in options.items():
        for value in opts[1:]:
            out.append(_fill(route.template, {**base, name: value}))
    return list(dict.fromkeys(out))


def _fill(template: str, values: dict) -> str:
    def hole(m):
        name = m[1]
        return quote(values[name], safe="") if name in values else m[0]

    return "/" + re.sub(r"\{(\w+)\}", hole, template)
