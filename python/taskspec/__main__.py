"""``python -m taskspec``: the same command line as the ``taskspec`` script."""

from taskspec.cli import main

raise SystemExit(main())
