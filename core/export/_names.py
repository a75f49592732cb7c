"""The providers an export can be made for: what the CLI offers as choices, without loading the exporters."""

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "gemini-openapi", "mcp")
