"""opgate: a progressive tool disclosure gateway.

The reusable engine lives in :mod:`opgate.core`; the explorer in
:mod:`opgate.tui`; the command line in :mod:`opgate.cli`.
"""

__version__ = "0.1.0"
