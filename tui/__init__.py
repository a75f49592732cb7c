"""The Textual explorer over opgate.core."""
