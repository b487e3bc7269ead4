"""``taskspec serve``: serve the installed generators over gRPC.

Every generator that an installed package declares as an entry point
(:meth:`taskspec.Registry.from_entry_points`) is offered through the
``taskspec.v1.GeneratorService`` (see :mod:`taskspec.remote`), so a harness
in another language can use them. The command prints the address it
listens on, once listening, as its first line on standard output, so a
script that started it on port 0 can read the port; plugins that fail to
load are logged on standard error and the others are served. An address
that another server already listens on is refused. SIGINT and SIGTERM stop
it: calls in flight get ``--grace`` seconds (:data:`STOP_GRACE` by default)
to finish, then are
answered UNAVAILABLE, and the command returns even while generators that
ignore their calls run on (they are logged and abandoned). A second SIGINT
or SIGTERM ends the process at once, with status 128 plus the signal's
number.

At most ``--max-concurrent-calls`` generator calls run at once (64 by
default; further ones are refused with RESOURCE_EXHAUSTED, so the health
service and ListLanguages always answer), and a call that comes without a
deadline gets ``--default-timeout`` seconds (60 by default, 0 for none).
Every call is answered by its deadline; a generator still running after
its call was answered is abandoned, and while ``--max-abandoned-calls`` of
them run (64 by default), new calls are refused with RESOURCE_EXHAUSTED.

grpc is imported only when the command runs, so the rest of the command
line works without the ``grpc`` extra.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import os
import signal
import sys
import threading
from types import FrameType
from typing import Final, Never

from taskspec.cli._kit import EXIT_INVALID, EXIT_OK, positive_int

__all__ = ["DESCRIPTION", "add_arguments", "run"]

#: Seconds that calls in flight get to finish after SIGINT or SIGTERM.
STOP_GRACE: Final = 5.0

#: Generator calls that may run at once, unless --max-concurrent-calls says otherwise.
MAX_CONCURRENT_CALLS: Final = 64

#: Generators that may run on after their calls were answered, unless
#: --max-abandoned-calls says otherwise.
MAX_ABANDONED_CALLS: Final = 64

#: The deadline, in seconds, of a call that comes without one, unless
#: --default-timeout says otherwise: the same as a Python client's default.
DEFAULT_TIMEOUT: Final = 60.0


#: What ``taskspec serve --help`` says the command does.
DESCRIPTION: Final = (
    "Serve every generator installed as an entry point (group "
    "taskspec.generators) through the gRPC GeneratorService, with the standard health "
    "service, until SIGINT or SIGTERM. Needs the grpc extra: pip install 'taskspec[grpc]'."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--address",
        default="127.0.0.1:0",
        metavar="HOST:PORT",
        help="where to listen (default: %(default)s, loopback on a port the system picks; "
        "the address is printed once listening)",
    )
    p.add_argument(
        "--max-concurrent-calls",
        type=positive_int,
        default=MAX_CONCURRENT_CALLS,
        metavar="N",
        help="generator calls that run at once; a call beyond them is refused with "
        "RESOURCE_EXHAUSTED, so the health service always answers (default: %(default)s)",
    )
    p.add_argument(
        "--max-abandoned-calls",
        type=positive_int,
        default=MAX_ABANDONED_CALLS,
        metavar="N",
        help="generators that may run on after their calls were answered (at the deadline, "
        "the caller gone); while that many run, new calls are refused with "
        "RESOURCE_EXHAUSTED (default: %(default)s)",
    )
    p.add_argument(
        "--grace",
        type=_seconds,
        default=STOP_GRACE,
        metavar="SECONDS",
        help="after SIGINT or SIGTERM, how long calls in flight get to finish before they are "
        "answered UNAVAILABLE; a second signal ends the process at once (default: %(default)g)",
    )
    p.add_argument(
        "--default-timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="the deadline of a call that comes without one; 0 for none (default: %(default)g)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not (value >= 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a number of seconds, 0 or more, got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    try:
        from taskspec import remote  # noqa: PLC0415 - grpc only for this command
    except ImportError as err:
        print(f"taskspec serve: {err}", file=sys.stderr)
        return EXIT_INVALID
    from taskspec._errors import TaskSpecError  # noqa: PLC0415
    from taskspec._registry import Registry  # noqa: PLC0415

    _log_to_stderr()
    log = logging.getLogger("taskspec")
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stop.is_set():
            # The second signal: the grace period is not waited out.
            log.warning("stopping at once (%s)", signal.Signals(signum).name)
            _exit(128 + signum)
        stop.set()

    # Installed before anything slow, so an early signal still stops cleanly.
    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        registry = Registry.from_entry_points()  # logs each plugin failure
        try:
            server = remote.serve(
                registry,
                args.address,
                max_concurrent_calls=args.max_concurrent_calls,
                max_abandoned_calls=args.max_abandoned_calls,
                default_timeout=args.default_timeout or None,
            )
        except remote.RemoteError as err:  # cannot listen: the address says why
            print(f"taskspec serve: {err.details}", file=sys.stderr)
            return EXIT_INVALID
        except TaskSpecError as err:
            print(f"taskspec serve: {err}", file=sys.stderr)
            return EXIT_INVALID
        languages = ", ".join(language.value for language in registry.languages())
        print(f"listening on {server.address}", flush=True)
        log.info("serving %s", languages or "no generators (none is installed)")
        # Waiting in slices keeps the main thread able to run the handler.
        while not stop.wait(0.5):
            pass
        # The stop runs in a thread of its own, and the main thread waits
        # for it in slices: a signal can reach the process on any thread,
        # and Python runs its handler only once the main thread comes back
        # from a wait, so one long wait would hold a second signal off for
        # the whole grace period.
        stopper = threading.Thread(target=server.stop, args=(args.grace,), name="taskspec-stop")
        stopper.start()  # logs the generators it abandons
        while stopper.is_alive():
            stopper.join(0.1)
        log.info("stopped")
        if server.abandoned_calls:
            # Their threads cannot keep the process alive, but threads they
            # started themselves could: the process ends here.
            _exit(EXIT_OK)
        return EXIT_OK
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _exit(status: int) -> Never:
    """End the process now, with *status*, once what was written is flushed.

    Neither threads that still run nor exit handlers are waited for.
    """
    for handler in logging.getLogger("taskspec").handlers:
        handler.flush()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to say
            stream.flush()
    os._exit(status)


def _log_to_stderr() -> None:
    """Show the package's log records (plugin failures, generator errors) on stderr."""
    logger = logging.getLogger("taskspec")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("taskspec serve: %(levelname)s: %(message)s"))
        logger.addHandler(handler)
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.INFO)
