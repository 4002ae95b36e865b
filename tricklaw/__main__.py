"""``python -m tricklaw``: the same as the ``tricklaw`` command."""

from tricklaw.cli import main

raise SystemExit(main())
