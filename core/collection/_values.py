"""Arguments that refer to earlier answers and to environment variables.

In a saved call's arguments a string that is exactly

* ``$0.result.id`` or ``$create_task.result.task.id`` is replaced by that
  value of an earlier call's envelope (by its position in the run, from 0, or
  its name), of whatever JSON type it is, as in a batch;
* ``${project_id}`` is replaced by that variable (from ``collection.toml``'s
  ``[vars]`` or the ``--env`` file), of whatever type it has there.

``${name}`` inside a longer string is replaced by the variable's text. A
string that starts with ``$$`` keeps one ``$`` and is otherwise left alone.
"""

from __future__ import annotations

import re
from typing import Any

from ..exec._references import UnresolvedReference, resolve_references

STEP_REFERENCE = re.compile(r"^\$(\d+|[A-Za-z_][A-Za-z0-9_\-]*)((?:\.[A-Za-z_][A-Za-z0-9_\-]*|\[\d+\])*)$")
VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_\-]*)\}")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


class UnresolvedValue(Exception):
    """A reference or variable that has no value; ``where`` is the argument's path (``args.task_id``)."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def _walk(value: Any, where: str):
    """Every string in ``value`` with its argument path (a stack: arguments may nest deeply)."""
    stack = [(value, where)]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            yield node, path
        elif isinstance(node, dict):
            stack.extend((child, f"{path}.{key}") for key, child in node.items())
        elif isinstance(node, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(node))


def uses(args: Any) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``(step references, variables)`` in ``args``, each as ``(what, argument path)``."""
    steps: list[tuple[str, str]] = []
    variables: list[tuple[str, str]] = []
    for text, path in _walk(args, "args"):
        if text.startswith("$$"):
            continue
        match = STEP_REFERENCE.fullmatch(text)
        if match:
            steps.append((match.group(1), path))
        variables.extend((name, path) for name in VARIABLE.findall(text))
    return steps, variables


def refers_to_earlier_calls(args: Any) -> bool:
    """Whether ``args`` use an earlier call's answer (``$name...`` or ``$N...``), so the call cannot run alone."""
    return bool(uses(args)[0])


class Resolver:
    """Turns a saved call's arguments into the ones sent, from the answers so far and the variables."""

    def __init__(self, names: list[str], variables: dict[str, Any]):
        self._index = {name: i for i, name in enumerate(names)}
        self._variables = variables
        self.envelopes: dict[int, dict[str, Any]] = {}

    def step_index(self, ref: str) -> int | None:
        return int(ref) if ref.isdigit() else self._index.get(ref)

    def resolve(self, args: Any, position: int) -> Any:
        """A copy of ``args`` with every reference and variable replaced; :class:`UnresolvedValue` names the first that cannot be."""
        if isinstance(args, str):
            return self._string(args, position, "args")
        if isinstance(args, dict):
            return {key: self._resolve_at(child, position, f"args.{key}") for key, child in args.items()}
        return args

    def resolve_value(self, value: Any, position: int, where: str) -> Any:
        """``value`` (found at ``where``) with its references and variables replaced."""
        return self._resolve_at(value, position, where)

    def _resolve_at(self, value: Any, position: int, where: str) -> Any:
        root: list[Any] = [None]
        stack: list[tuple[Any, Any, Any, str]] = [(value, root, 0, where)]
        while stack:
            node, parent, key, path = stack.pop()
            if isinstance(node, str):
                parent[key] = self._string(node, position, path)
            elif isinstance(node, dict):
                fresh: dict[str, Any] = {}
                parent[key] = fresh
                stack.extend((child, fresh, name, f"{path}.{name}") for name, child in node.items())
            elif isinstance(node, list):
                items: list[Any] = [None] * len(node)
                parent[key] = items
                stack.extend((child, items, i, f"{path}[{i}]") for i, child in enumerate(node))
            else:
                parent[key] = node
        return root[0]

    def _string(self, text: str, position: int, where: str) -> Any:
        if text.startswith("$$"):
            return text[1:]
        match = STEP_REFERENCE.fullmatch(text)
        if match:
            return self._step_value(text, match, position, where)
        whole = VARIABLE.fullmatch(text)
        if whole:
            return self._variable(whole.group(1), where)
        return VARIABLE.sub(lambda m: self._variable_text(m.group(1), where), text)

    def _step_value(self, text: str, match: re.Match[str], position: int, where: str) -> Any:
        index = self.step_index(match.group(1))
        if index is None:
            raise UnresolvedValue(where, f"{text} names no call of this collection")
        if index >= position:
            raise UnresolvedValue(where, f"{text} points at call {index}, which runs after this one ({position}); refer to earlier calls only")
        try:
            return resolve_references(f"${index}{match.group(2)}", self.envelopes)
        except UnresolvedReference as exc:
            raise UnresolvedValue(where, f"cannot resolve {text}: {exc.reason}") from None

    def _variable(self, name: str, where: str) -> Any:
        if name not in self._variables:
            known = ", ".join(sorted(self._variables)) or "none"
            raise UnresolvedValue(where, f"${{{name}}} is not set (variables: {known}); set it in collection.toml [vars] or the --env file")
        return self._variables[name]

    def _variable_text(self, name: str, where: str) -> str:
        value = self._variable(name, where)
        if isinstance(value, (dict, list)):
            raise UnresolvedValue(where, f"${{{name}}} is a {type(value).__name__}, which cannot go inside a longer string")
        return str(value).lower() if isinstance(value, bool) else str(value)
