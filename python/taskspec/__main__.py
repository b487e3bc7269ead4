"""``python -m taskspec``: the same command line as the ``taskspec`` script."""

from taskspec._cli import main

raise SystemExit(main())
