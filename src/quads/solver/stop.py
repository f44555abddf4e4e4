"""Ending a running solve or analysis from another thread.

A :class:`StopSignal` is handed to :func:`quads.solver.solve` or
:func:`quads.solver.analyse`; calling :meth:`StopSignal.stop` from any thread
ends the search at once (the kernel checks its budget every few thousand
nodes), and the solve returns what it knew, as when its time runs out.  One
signal may serve several searches: a search started after the stop ends
before it begins.

>>> signal = StopSignal()
>>> signal.stopped
False
"""

from __future__ import annotations

import threading

from quads.solver.kernel import Control

__all__ = ["StopSignal"]


class StopSignal:
    """A thread-safe switch that ends the searches it was given to."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stopped = False
        self._controls: list[Control] = []

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stopped

    def stop(self) -> None:
        """End every search given this signal, now and later."""
        with self._lock:
            self._stopped = True
            controls, self._controls = self._controls, []
        for control in controls:
            control.stop()

    def attach(self, control: Control) -> None:
        """Let :meth:`stop` end the search of ``control`` (stopped at once if the
        signal already was)."""
        with self._lock:
            if not self._stopped:
                self._controls.append(control)
                return
        control.stop()

    def detach(self, control: Control) -> None:
        """Forget ``control`` (its search is over)."""
        with self._lock:
            if control in self._controls:
                self._controls.remove(control)
