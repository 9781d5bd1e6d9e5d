"""pydantic's validation errors as findings an author can act on: one per fault, each naming the field by its path
(`params.arguments.a`, `_meta["io.modelcontextprotocol/serverInfo"].name`), with what was sent in its place.

pydantic reports a union's failure once per arm; `prune_errors` keeps the arm the message meant (the one whose tag
matched, or the closest), so a wrong field in a tools/call result is one finding, not one per result type.
"""

from __future__ import annotations

import json
import re

from ..wire.protocol import REQUIRED_META_KEYS, SERVER_INFO_KEY


def all_models(methods) -> set[type]:
    """Every pydantic model class reachable from the 2026-07-28 maps (their names tag union arms in error locs)."""
    import mcp_types._v2026_07_28 as generated  # internal, but only to learn class names for readable paths

    return {obj for obj in vars(generated).values() if isinstance(obj, type) and hasattr(obj, "model_fields")}


_PRIMITIVE_TAGS = {"str", "int", "float", "bool", "none", "list", "dict", "tuple", "set"}


def _is_tag(segment: object, class_names: set[str]) -> bool:
    """pydantic names each arm of a union in an error's loc: a model's class name, or e.g. 'str', 'list[...]'."""
    return isinstance(segment, str) and (segment in class_names or segment in _PRIMITIVE_TAGS
                                         or bool(re.match(r"^[a-z-]+\[", segment)))


def prune_errors(errors: list[dict], class_names: set[str], depth: int = 0) -> list[dict]:
    """Keep, at each union, only the arm the value was meant to be, and drop the arm tags from the locs.

    An arm whose own discriminator (a direct literal field such as "type") failed was not meant; among the rest the
    arm with the fewest errors wins. When every arm fails on the same discriminator, one finding says which values
    that field may take.
    """
    kept, plain, arms = [], {}, {}
    for error in errors:
        loc = error["loc"]
        if len(loc) <= depth:
            kept.append(error)
        elif _is_tag(loc[depth], class_names):
            arms.setdefault(loc[depth], []).append(error)
        else:
            plain.setdefault(loc[depth], []).append(error)
    for group in plain.values():
        kept += prune_errors(group, class_names, depth + 1)
    if arms:
        def discriminator_failed(tag, group):
            return [e for e in group if len(e["loc"]) == depth + 2 and e["type"] == "literal_error"]

        meant = {tag: group for tag, group in arms.items() if not discriminator_failed(tag, group)}
        if meant:
            best = min(meant.values(), key=len)
            ties = [g for g in meant.values() if len(g) == len(best)]
            chosen = [_untag(e, depth) for e in best]
            if len(ties) > 1 and all(len(g) == 1 and g[0]["type"] == "missing" and len(g[0]["loc"]) == depth + 2
                                     for g in ties):
                names = " or ".join(dict.fromkeys(str(g[0]["loc"][-1]) for g in ties))
                chosen = [dict(chosen[0], loc=chosen[0]["loc"][:-1] + (names,))]
            kept += prune_errors(chosen, class_names, depth)
        else:
            fields = {e["loc"][depth + 1] for g in arms.values() for e in discriminator_failed(None, g)}
            if len(fields) == 1:
                field = fields.pop()
                first = discriminator_failed(None, next(iter(arms.values())))[0]
                expected = [str(e.get("ctx", {}).get("expected", "")) for g in arms.values()
                            for e in discriminator_failed(None, g)]
                kept.append({"type": "literal_error", "loc": first["loc"][:depth] + (field,),
                             "msg": "Input should be " + " or ".join(dict.fromkeys(expected)),
                             "input": first.get("input")})
            else:
                best = min(arms.values(), key=len)
                kept += prune_errors([_untag(e, depth) for e in best], class_names, depth)
    return kept


def _untag(error: dict, depth: int) -> dict:
    loc = error["loc"]
    return dict(error, loc=loc[:depth] + loc[depth + 1:])


def structural(error: dict) -> bool:
    """Faults the transcript-* rules of transcript.py report already (params, params._meta, required keys)."""
    loc = tuple(error["loc"])
    return (loc == ("params",) or loc == ("params", "_meta")
            or (len(loc) == 3 and loc[:2] == ("params", "_meta") and loc[2] in REQUIRED_META_KEYS
                and error["type"] == "missing"))


def _path(loc: tuple) -> str:
    out = ""
    for segment in loc:
        if isinstance(segment, int):
            out += f"[{segment}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*( or [A-Za-z_][A-Za-z0-9_]*)*", str(segment)):
            out += ("." if out else "") + str(segment)
        else:
            out += f"[{json.dumps(segment, ensure_ascii=False)}]"
    return out


def finding(error: dict) -> str:
    path = _path(tuple(error["loc"]))
    if error["type"] == "missing":
        return f"{path} missing" if path else "missing"
    text = error["msg"]
    if "input" in error and error["type"] not in ("model_type", "dict_type", "model_attributes_type"):
        text += f" (got {show(error['input'])})"
    elif "input" in error:
        text += f" (got {_kind(error['input'])})"
    return f"{path}: {text}" if path else text


def check_server_info(meta: object) -> list[str]:
    if not isinstance(meta, dict) or SERVER_INFO_KEY not in meta:
        return []
    info = meta[SERVER_INFO_KEY]
    where = f'_meta["{SERVER_INFO_KEY}"]'
    if not isinstance(info, dict):
        return [f"{where} must be an Implementation object {{name, version}}, got {show(info)}"]
    findings = []
    for key in ("name", "version"):
        if key not in info:
            findings.append(f"{where}.{key} missing")
        elif not isinstance(info[key], str):
            findings.append(f"{where}.{key} must be a string, got {show(info[key])}")
    return findings


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: object) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def show(value: object, limit: int = 60) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
