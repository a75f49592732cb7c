"""``python -m opgate`` runs the command line."""

from opgate.cli import main

raise SystemExit(main())
