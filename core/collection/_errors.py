"""Problems with a collection's files, each naming the file, the key and what was expected."""

from __future__ import annotations


class CollectionError(Exception):
    """A collection (or an environment file) that cannot be used; ``problems`` lists every one found."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        count = len(self.problems)
        super().__init__(f"{count} problem{'s' if count != 1 else ''}:\n" + "\n".join(f"  {p}" for p in self.problems))


def problem(file: str, key: str | None, message: str) -> str:
    """``file: key: message`` (the key is left out when the problem is the whole file)."""
    return f"{file}: {key}: {message}" if key else f"{file}: {message}"
