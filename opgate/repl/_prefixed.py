"""Completing a lone value as if it were typed after a prefix (``exec onto.task.create project_id=``).

When the REPL asks for a missing argument, the answer gets the same
completions as the argument would on the command line.
"""

from __future__ import annotations

from collections.abc import Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document


class PrefixedCompleter(Completer):
    def __init__(self, completer: Completer, prefix: str):
        self.completer = completer
        self.prefix = prefix

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        if any(c.isspace() for c in document.text_before_cursor):
            return  # a free answer with spaces is one value, not more words of a command line
        shifted = Document(self.prefix + document.text, len(self.prefix) + document.cursor_position)
        for completion in self.completer.get_completions(shifted, complete_event):
            # Never reach back into the prefix, which is not on the screen.
            if -completion.start_position <= len(document.text_before_cursor):
                yield completion
