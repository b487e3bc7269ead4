"""The package's version, from the installed distribution's metadata.

``pyproject.toml`` is the one place the version is written; ``__version__``
and ``taskspec --version`` both read it back from the metadata that
installing the package records, so the two can never disagree with it.
"""

from __future__ import annotations

import functools

__all__ = ["version"]


@functools.cache
def version() -> str:
    """The installed version of the ``taskspec`` distribution, or ``"0+unknown"``.

    The fallback covers running from a source tree that was never installed
    (``PYTHONPATH=python``), where no metadata exists.
    """
    from importlib.metadata import PackageNotFoundError  # noqa: PLC0415 - costly import
    from importlib.metadata import version as dist_version  # noqa: PLC0415

    try:
        return dist_version("taskspec")
    except PackageNotFoundError:
        return "0+unknown"
