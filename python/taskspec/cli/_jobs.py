"""The CPUs a run of ``taskspec validate`` may take: those the process may use, less the busy.

The default ``--jobs`` starts workers for a large run only (see
:func:`taskspec.cli._cmd_validate.parallel_jobs`), and then one for each
CPU that :func:`free_cpus` finds free.
"""

from __future__ import annotations

import os
import time

__all__ = ["BUSY_PAUSE", "BUSY_SAMPLES", "free_cpus", "others_running", "usable_cpus"]


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def free_cpus(cpus: int, busy: float | None) -> int:
    """The CPUs of *cpus* that other work leaves free: *busy* of them are taken.

    On a machine already busy another process gets no CPU of its own, and
    workers only add their overhead (``make -l`` and ``ninja -l`` hold back
    for the same reason). Without a measure (None), all of them.
    """
    if busy is None:
        return cpus
    return max(1, min(cpus, int(cpus - busy)))


#: Looks at the run queue, and the pause between two: a short, steady sample.
BUSY_SAMPLES = 5
BUSY_PAUSE = 0.002


def others_running() -> float | None:
    """How many other processes are running or waiting to run now; None where unknown.

    Linux counts them in ``/proc/loadavg`` (this process among them); the
    median of a few looks steadies a count that moves from moment to
    moment. Elsewhere, the 1-minute load average, which lags behind.
    """
    counts = []
    try:
        for _ in range(BUSY_SAMPLES):
            with open("/proc/loadavg", "rb") as f:
                counts.append(int(f.read().split()[3].split(b"/")[0]) - 1)
            time.sleep(BUSY_PAUSE)
    except (OSError, ValueError, IndexError):
        try:
            return os.getloadavg()[0]
        except (AttributeError, OSError):
            return None
    return sorted(counts)[len(counts) // 2]
