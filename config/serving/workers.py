"""django-q2's cluster with a clean stop on SIGINT and SIGTERM (django-q2 1.11.1).

What goes wrong with django-q2's own handling when the whole process group is signalled
(Ctrl-C in a terminal, `kill -TERM -PGID`, a container or service manager stopping):

- The sentinel (the process that guards the workers) keeps SIGTERM's default action, so
  a group SIGTERM kills it while it sleeps on the cluster's stop event. The cluster's
  main process, handling the same SIGTERM, then sets that event: a multiprocessing
  Event's set() waits for every sleeper to wake, and a dead sleeper never does. The main
  process hangs until something kills it (seen as 30 s to forever).
- The main process's handler is not re-entrant: each further signal during a stop starts
  another stop inside the first (a shell trap that signals its own group repeatedly, as
  `make run`'s did, stacks them until RecursionError).
- A stop waits for every busy worker to finish its task, however long.

Here the sentinel never dies of a signal (it notes SIGTERM and stops only when the main
process tells it, so the event it sleeps on always has a live sleeper); the processes it
forks keep SIGTERM's default action, so a group SIGTERM still ends a busy worker at once;
the main process stops once, whatever arrives meanwhile, and after Q_STOP_GRACE_SECONDS
(default 4) ends the workers still busy. A task cut short was never acknowledged: the
broker hands it out again when its `retry` lease lapses, as after any worker death.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from types import FrameType
from typing import Any

from django_q import cluster as q_cluster
from django_q.conf import Conf, logger

STOP_GRACE_SECONDS = float(os.environ.get("Q_STOP_GRACE_SECONDS", "4"))


def _forked_child_default_signals() -> None:
    # A worker, pusher or monitor: SIGTERM ends it at once (its task goes back to the
    # broker); SIGINT stays ignored, as django-q2 has it (the sentinel stops it).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Sentinel(q_cluster.Sentinel):
    _terminated = False

    def start(self) -> None:
        # django-q2's __init__ has just ignored SIGINT and left SIGTERM at its default.
        signal.signal(signal.SIGTERM, self._note_sigterm)
        os.register_at_fork(after_in_child=_forked_child_default_signals)
        super().start()

    def _note_sigterm(self, signum: int, frame: FrameType | None) -> None:
        """The stop comes from the main process through the stop event; only an orphaned
        sentinel (its main process killed outright) ends itself."""
        self._terminated = True
        if os.getppid() != self.parent_pid:
            os._exit(0)

    def reincarnate(self, process: Any) -> None:
        if self._terminated or self.stop_event.is_set():
            # Stopping: a process that died now was signalled with the rest of the group.
            if process in self.pool:
                self.pool.remove(process)
            return
        super().reincarnate(process)


class Cluster(q_cluster.Cluster):
    _stopping = False
    stop_event: Any  # a multiprocessing Event once started (django-q2 leaves it untyped)

    def sig_handler(self, signum: int, frame: FrameType | None) -> None:
        if self._stopping:
            return  # one stop at a time: a second Ctrl-C or a group's repeat changes nothing
        self._stopping = True
        logger.info(
            "Q Cluster %s got %s: stopping", self.name, Conf.SIGNAL_NAMES.get(signum, signum)
        )
        sentinel = self.sentinel
        if sentinel is None:
            raise SystemExit(0)  # signalled before the sentinel was started: nothing to stop
        if not sentinel.is_alive():
            return
        self.stop_event.set()  # safe: the sentinel is alive and no signal kills it
        sentinel.join(STOP_GRACE_SECONDS)
        if sentinel.is_alive():
            busy = _children(sentinel.pid)
            logger.warning(
                "Q Cluster %s: ending %d process(es) still busy after %ss; their tasks "
                "return to the queue when the retry lease lapses",
                self.name,
                len(busy),
                STOP_GRACE_SECONDS,
            )
            for pid in busy:
                _signal(pid, signal.SIGTERM)
            sentinel.join(STOP_GRACE_SECONDS)
        if sentinel.is_alive():
            sentinel.kill()
            sentinel.join()
        logger.info("Q Cluster %s has stopped.", self.name)
        self.start_event = None
        self.stop_event = None


def _children(pid: int) -> list[int]:
    try:
        return [
            int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ]
    except OSError:
        return []


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def use_clean_stop() -> None:
    """Make django-q2's Cluster start this module's Sentinel (it names the class from its
    own module when it forks the sentinel)."""
    q_cluster.Sentinel = Sentinel
