"""The exposure modes' names: what the CLI offers as choices, without loading the modes themselves."""

MODES = ("gateway", "full", "hybrid", "deferred")
