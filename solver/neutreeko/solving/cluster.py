"""The solve over symmetry classes (:mod:`solver.neutreeko.solving.solve_classes`) on a Dask cluster, byte for
byte the same table. The only module that imports Dask (``pip install 'neutreeko-solver[cluster]'``).

The state is cut into *partitions*, runs of whole rows of classes (:data:`~solver.neutreeko.solving.solve_classes._ROW`
each, so that no two share a byte of the decided bits), numbered in class order; each worker holds a
run of them in one actor (``_Holder``). A level goes in *rounds*, one per slab of the level's
classes that some worker holds: each worker collects its slab, gathers the predecessors' classes and
buckets them by the partition that owns them (*route*); then each takes its buckets from every other
worker and settles them (*settle*). Partitions share no byte and the order in which a level's
predecessors are settled changes nothing decided (:mod:`solver.neutreeko.solving._kernel`), so the bytes are
those of the single-machine solve whatever the partitions and the order of arrival.

The state is saved at the start of a level, as a single-machine solve saves it, into a directory every
worker reaches: a file per partition and ``state.json``, written last, naming the level and each file's
SHA-256. A worker lost during a level costs the work since the last save: every partition is taken up
again from it (or classified again if none was saved) on the workers left, and the solve goes on.

The layout, the traffic and the figures: docs/scaling.md.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import os
import secrets
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import distributed
import numpy as np

from solver.core import files
from solver.core.errors import ClusterError
from solver.core.storage.container import Pieces
from solver.neutreeko.checking import check
from solver.neutreeko.checking.check import CheckReport, CheckStep, folded_report
from solver.neutreeko.model import index
from solver.neutreeko.model.game import Game
from solver.neutreeko.model.symmetry import CANONICAL_FORM
from solver.neutreeko.model.values import MAX_DISTANCE, encode_result
from solver.neutreeko.solving import EVERY
from solver.neutreeko.solving import solve as positions
from solver.neutreeko.solving.checkpoint import CLUSTER_STATE
from solver.neutreeko.solving.class_inputs import ClassInputs
from solver.neutreeko.solving.levels import Level, Progress
from solver.neutreeko.solving.solve_classes import _ROW, Predecessors
from solver.neutreeko.tables.stats import Summary, summarize_folded_stretches

#: Seconds to wait for the scheduler, for the first worker, and for an answer to the checks.
CONNECT_SECONDS = 10.0
#: Classes of a level collected at a time by a worker, one round of the exchange: a quarter of the
#: single-machine solve's slab, as a round's buckets are held twice (sent and received) and in copies.
_SLAB = 1 << 20
#: Bytes of the table fetched from a worker at a time while it is counted and written.
_PIECE = 1 << 24
#: Workers lost in a row, with no level completed in between, after which the solve gives up.
_LOSSES = 5


@contextmanager
def connect(address: str) -> Iterator[distributed.Client]:
    """A client of the Dask scheduler at ``address`` (``tcp://host:port``), or of ``local:N``, N worker
    processes on this machine started now and stopped at the end. Raises :class:`~solver.core.errors.ClusterError` if the
    scheduler cannot be reached or has no worker within :data:`CONNECT_SECONDS`."""
    shown = address[:60]
    if address.startswith("local:"):
        count = address[len("local:"):]
        if not count.isdigit() or not 1 <= int(count) <= 256:
            raise ClusterError(f"--cluster {shown}: local:N wants N from 1 to 256 worker processes")
        # The workers share this machine's cores: each compiled kernel runs on its share of them.
        threads = str(max(1, (os.cpu_count() or 1) // int(count)))
        with distributed.LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=int(count), processes=True, threads_per_worker=1, dashboard_address=":0",
                silence_logs=logging.ERROR, env={"NUMBA_NUM_THREADS": threads}) as local, \
                distributed.Client(local) as client:  # type: ignore[no-untyped-call]
            yield client
        return
    try:
        client = distributed.Client(address, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {shown}: {str(error).splitlines()[0][:120]}") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"the Dask scheduler at {shown} has no worker ({type(error).__name__})") from None
        yield client


def fingerprint() -> str:
    """The package's version and a digest of its Python sources: workers must run the same code."""
    root = Path(__file__).resolve().parents[2]  # solver/
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    try:
        version = metadata.version("neutreeko-solver")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return f"{version} (sources {digest.hexdigest()[:12]})"


def _facts(check: Callable[..., str], *arguments: Any) -> tuple[str, str]:
    """On a worker: its :func:`fingerprint`, and what ``check(*arguments)`` finds wrong there, or ""."""
    return fingerprint(), check(*arguments)


def _reaches(directory: str, token: str) -> str:
    """Why this worker cannot use ``directory``, where the client left the file ``.probe-<token>``
    holding the token, or ""."""
    probe = Path(directory) / f".probe-{token}"
    try:
        if probe.read_text() != token:
            return f"finds in {probe} not what this client wrote there"
        mine = probe.with_name(f"{probe.name}-{secrets.token_hex(4)}")
        mine.write_text(token)
        mine.unlink()
    except OSError as error:
        return f"cannot use {directory[:60]}: {error.strerror or error}"
    return ""


def _sees(path: str, size: int) -> str:
    """Why this worker cannot read the table at ``path`` of ``size`` bytes, or ""."""
    try:
        seen = os.stat(path).st_size
    except OSError as error:
        return f"cannot read {path[:60]}: {error.strerror or error}"
    return "" if seen == size else f"sees {path[:60]} with {seen:,} bytes, not {size:,}"


def check_workers(client: distributed.Client, check: Callable[..., str], *arguments: Any) -> list[str]:
    """The workers' addresses, once each runs this package's code and ``check(*arguments)`` finds
    nothing wrong on any; raises :class:`~solver.core.errors.ClusterError` otherwise."""
    try:
        answers = client.run(_facts, check, *arguments, wait=True)
    except Exception as error:  # a worker that cannot even load this module: another install
        raise ClusterError(f"a Dask worker cannot run neutreeko-solver's cluster code: "
                           f"{type(error).__name__}: {str(error)[:60]}") from None
    mine = fingerprint()
    for worker, (theirs, problem) in sorted(answers.items()):
        if theirs != mine:
            raise ClusterError(f"the Dask worker {worker[:60]} runs neutreeko-solver {theirs[:60]}, not {mine}")
        if problem:
            raise ClusterError(f"the Dask worker {worker[:60]} {problem}; every worker must reach it")
    return sorted(answers)


def _check_state_directory(client: distributed.Client, directory: Path) -> list[str]:
    """:func:`check_workers` with the directory of a solve's saved state, which every worker must reach."""
    directory.mkdir(parents=True, exist_ok=True)
    token = secrets.token_hex(8)
    probe = directory / f".probe-{token}"
    probe.write_text(token)
    try:
        return check_workers(client, _reaches, str(directory.resolve()), token)
    finally:
        probe.unlink(missing_ok=True)


class _Holder:
    """On a worker: the partitions ``held`` (a run of them) of a solve of the game ``board``, ``rule``
    whose partition ``p`` holds rows ``bounds[p]`` to ``bounds[p + 1] - 1`` of the classes, in one state
    (:class:`~solver.neutreeko.solving.levels.State`'s arrays) from row ``bounds[held[0]]`` on. Driven by
    ``_Solve``."""

    def __init__(self, board: str, rule: str, bounds: list[int], held: list[int]) -> None:
        import numba

        from solver.neutreeko.solving.kernel_inputs import KernelInputs

        self.game = Game.of(board, rule)
        self.inputs = KernelInputs.of(self.game, numba.get_num_threads())
        self.classes = ClassInputs.of(self.game)
        self.bounds, self.held = bounds, held
        parts = len(bounds) - 1
        part_of = np.repeat(np.arange(parts, dtype=np.int32), np.diff(bounds))
        self.predecessors = Predecessors(self.game, self.inputs, self.classes, part_of, parts, bounds[-1] * _ROW,
                                         _SLAB)
        self.first, rows = bounds[held[0]], bounds[held[-1] + 1] - bounds[held[0]]
        self.words = np.empty(rows * _ROW // 8, dtype=np.uint64)
        self.decided = np.zeros(rows * _ROW // 8, dtype=np.uint8)
        self.fresh = np.zeros(rows, dtype=np.int64)
        self.result = self.words.view(np.uint8)
        self.slabs: list[tuple[int, int]] = []
        self.found = self.fresh
        self.plies = 0
        self.outgoing: tuple[int, dict[int, tuple[np.ndarray, np.ndarray]]] = (-1, {})

    def classify(self) -> int:
        """Classify every class held; the number of them lost in 0."""
        from solver.neutreeko.solving import _class_kernel

        inputs = self.inputs
        _class_kernel._classify(inputs.rays, inputs.triples, inputs.wins, inputs.other_count, self.classes.arrays,
                                _ROW, self.first * _ROW, self.result, self.decided, self.fresh)
        return int(self.fresh.sum())

    def _arrays(self, p: int) -> tuple[np.ndarray, ...]:
        """Partition ``p``'s stretch of each array of the state (views)."""
        first, last = self.bounds[p] - self.first, self.bounds[p + 1] - self.first
        return (self.words[first * _ROW // 8:last * _ROW // 8], self.decided[first * _ROW // 8:last * _ROW // 8],
                self.fresh[first:last])

    def save(self, directory: str) -> dict[int, str]:
        """Write each partition held to ``directory`` (atomically); the SHA-256 of each file."""
        digests = {}
        for p in self.held:
            digest = hashlib.sha256()
            with files.replacing(Path(directory) / f"part-{p:05d}") as temporary, open(temporary, "wb") as file:
                for array in self._arrays(p):
                    file.write(array.data.cast("B"))
                    digest.update(array.data.cast("B"))
            digests[p] = digest.hexdigest()
        return digests

    def load(self, directory: str, digests: dict[int, str]) -> int:
        """Take up the partitions held from ``directory``, where :meth:`save` wrote them with ``digests``;
        the number of classes of their level. Raises ``ValueError`` if a file is not what was saved."""
        for p in self.held:
            path = Path(directory) / f"part-{p:05d}"
            digest = hashlib.sha256()
            with open(path, "rb") as file:
                for array in self._arrays(p):
                    view = array.data.cast("B")
                    if file.readinto(view) != len(view):
                        raise ValueError(f"{path} is cut short")
                    digest.update(view)
                if file.read(1) or digest.hexdigest() != digests[p]:
                    raise ValueError(f"{path} does not hold the bytes it was saved with")
        return int(self.fresh.sum())

    def begin(self, plies: int) -> int:
        """Start the step from the level ``plies``: its slabs (the rounds this worker takes part in)."""
        self.plies = plies
        self.found, self.fresh = self.fresh, np.zeros_like(self.fresh)
        self.slabs = positions._slabs(self.found, _SLAB)
        return len(self.slabs)

    def route(self, round_: int) -> int:
        """Gather the predecessors of this worker's slab of round ``round_`` (if it has one), bucketed by
        partition; the bytes of those for partitions held elsewhere."""
        buckets: dict[int, list[np.ndarray]] = {}
        weights: dict[int, np.ndarray] = {}
        predecessors = self.predecessors
        out, counts = predecessors.out, predecessors.counts
        capacity = out.shape[1] // counts.shape[0]
        if round_ < len(self.slabs):
            first, last = self.slabs[round_]
            for weight, used in predecessors.of_slab(self.result, self.words, self.decided, self.first * _ROW,
                                                     self.found, first, last, self.plies):
                for q in np.flatnonzero(counts[:used].sum(axis=0)).tolist():
                    kept = np.concatenate([out[q, b * capacity:b * capacity + counts[b, q]] for b in range(used)])
                    kept -= self.bounds[q] * _ROW
                    buckets.setdefault(q, []).append(kept)
                    weights.setdefault(q, np.zeros(predecessors.group + 1, dtype=np.int64))[weight] += len(kept)
        # Numbered within their partition, as int32 but in a partition of more than 2^31 classes.
        outgoing = {q: (weights[q], np.concatenate(bucket).astype(_numbers(self.bounds[q + 1] - self.bounds[q]),
                                                                  copy=False))
                    for q, bucket in buckets.items()}
        self.outgoing = (round_, outgoing)
        return sum(data.nbytes + sizes.nbytes for q, (sizes, data) in outgoing.items() if q not in self.held)

    async def take(self, round_: int, wanted: list[int]) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """This worker's buckets of round ``round_`` for the partitions ``wanted``: for each, the count by
        weight and the classes (numbered within the partition)."""
        if self.outgoing[0] != round_:
            raise RuntimeError(f"round {round_} asked of a worker at round {self.outgoing[0]}")
        return {q: self.outgoing[1][q] for q in wanted if q in self.outgoing[1]}

    def settle(self, round_: int, peers: list[Any], me: int) -> int:
        """Settle the buckets of round ``round_`` for the partitions held, from this worker and the others
        (``peers``, this one at ``me``), one weight at a time; the classes of the next level held so far."""
        from solver.neutreeko.solving import _kernel

        asked = [peer.take(round_, self.held) for k, peer in enumerate(peers) if k != me]
        code, losing = encode_result(self.plies + 1), self.plies % 2 == 0
        numbers = _numbers(len(self.fresh))
        for received in [{q: self.outgoing[1][q] for q in self.held if q in self.outgoing[1]},
                         *(answer.result() for answer in asked)]:
            for q, (sizes, data) in received.items():
                ends = np.cumsum(sizes).tolist()
                for weight in np.flatnonzero(sizes).tolist():
                    parents = data[ends[weight - 1]:ends[weight]].astype(numbers)  # a copy, numbered in the run
                    parents += (self.bounds[q] - self.first) * _ROW
                    _kernel._settle(parents.reshape(1, -1), np.array([[len(parents)]]), 1, losing, code, weight,
                                    self.result, self.decided, self.fresh, _ROW)
        return int(self.fresh.sum())

    def finish(self) -> None:
        """The undecided classes held are drawn."""
        from solver.neutreeko.solving import _kernel

        _kernel._undecided_are_drawn(self.result, self.decided)

    def piece(self, start: int, stop: int) -> np.ndarray:
        """The result bytes of the classes ``start`` to ``stop - 1`` (numbered within those held)."""
        piece: np.ndarray = self.result[start:stop].copy()
        return piece


def _numbers(rows: int) -> type[np.signedinteger[Any]]:
    """The type of the class numbers within a run of ``rows`` rows: int32 up to 2^31 classes."""
    return np.int32 if rows * _ROW <= np.iinfo(np.int32).max else np.int64


def _workers_of(dask_scheduler: Any) -> list[str]:
    """On the scheduler: its workers' addresses."""
    return list(dask_scheduler.workers)


@dataclass(frozen=True)
class ClusterSolution:
    """A solve over classes ended on the cluster: its ``summary``, ``seconds`` of solving, and ``folded``,
    its bytes as :class:`~solver.core.storage.container.Pieces` fetched from the workers in order
    (valid while the client is)."""

    game: Game
    summary: Summary
    seconds: float
    folded: Pieces


def solve_on_cluster(client: distributed.Client, game: Game, partitions: int, directory: Path,
                     progress: Progress | None = None, save_every: float = EVERY,
                     resume: bool = False) -> ClusterSolution:
    """Solve ``game`` over its symmetry classes on the workers of ``client``, its state cut into
    ``partitions`` partitions (0: one per worker), saved into ``directory`` (which every worker must
    reach) every ``save_every`` seconds of solving, and taken up from there if ``resume``.

    Raises :class:`~solver.core.errors.ClusterError` before any work if the workers cannot run it, or if workers are lost
    too often; ``OverflowError`` if a distance does not fit the result byte."""
    workers = _check_state_directory(client, directory)
    return _Solve(client, game, directory, save_every).run(partitions or len(workers), progress, resume)


class _Solve:
    """The client's side of a solve: which worker holds which partitions, the loop over levels, the
    saves and the recovery from a lost worker."""

    def __init__(self, client: distributed.Client, game: Game, directory: Path, save_every: float) -> None:
        self.client, self.game, self.directory, self.every = client, game, directory, save_every
        self.classes = ClassInputs.of(game).count
        self.holders: list[Any] = []
        self.held: list[list[int]] = []

    def _description(self) -> dict[str, Any]:
        return {"board": str(self.game.board), "rule": self.game.rule.name, "unit": "classes",
                "index_scheme": index.INDEX_SCHEME, "canonical_form": CANONICAL_FORM}

    def _start(self, bounds: list[int]) -> None:
        """An actor on each worker (as many as there are partitions at most), holding a run of partitions."""
        self.holders = []
        workers = sorted(self.client.scheduler_info()["workers"])
        parts = len(bounds) - 1
        used = workers[:parts]
        self.held = [list(range(parts * k // len(used), parts * (k + 1) // len(used))) for k in range(len(used))]
        futures = [self.client.submit(_Holder, str(self.game.board), self.game.rule.name, bounds, held, actor=True,
                                      workers=[worker], allow_other_workers=False, pure=False)
                   for worker, held in zip(used, self.held)]
        self.holders = [future.result() for future in futures]

    def _all(self, method: str, *arguments: Any) -> list[Any]:
        """Call ``method`` on every holder at once; their answers."""
        return [answer.result() for answer in [getattr(holder, method)(*arguments) for holder in self.holders]]

    def _saved(self) -> dict[str, Any] | None:
        try:
            text = (self.directory / CLUSTER_STATE).read_text()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise ClusterError(f"cannot read {self.directory / CLUSTER_STATE}: {error.strerror or error}") from None
        try:
            saved = json.loads(text)
            if not isinstance(saved, dict) or {key: saved.get(key) for key in self._description()} != self._description():
                raise ValueError
        except ValueError:
            raise ClusterError(f"{self.directory / CLUSTER_STATE} is not the saved state of a cluster solve of {self.game}; "
                               "remove it, or solve without --resume") from None
        return saved

    def _save(self, bounds: list[int], plies: int, done: int, seconds: float) -> None:
        level = self.directory / f"level-{plies:03d}"
        level.mkdir(exist_ok=True)
        digests: dict[str, str] = {}
        for answer in self._all("save", str(level.resolve())):
            digests.update({str(p): digest for p, digest in answer.items()})
        saved = {**self._description(), "bounds": bounds, "plies": plies, "done": done, "seconds": seconds,
                 "level": level.name, "sha256": digests}
        with files.replacing(self.directory / CLUSTER_STATE) as temporary:
            Path(temporary).write_text(json.dumps(saved))
        for other in self.directory.glob("level-*"):
            if other != level:
                shutil.rmtree(other, ignore_errors=True)

    def _take_up(self, saved: dict[str, Any] | None, bounds: list[int]) -> tuple[int, int, int, float]:
        """Start the holders from ``saved`` (or from the classification): plies, count, done, seconds."""
        self._start(bounds)
        if saved is None:
            return 0, sum(self._all("classify")), 0, 0.0
        level = str((self.directory / saved["level"]).resolve())
        try:
            count = sum(answer.result() for answer in [
                holder.load(level, {p: saved["sha256"][str(p)] for p in held})
                for holder, held in zip(self.holders, self.held)])
        except (OSError, ValueError, KeyError) as error:
            raise ClusterError(f"the saved state in {self.directory} cannot be taken up: {str(error)[:120]}; "
                               "remove it, or solve without --resume") from None
        return saved["plies"], count, saved["done"], float(saved["seconds"])

    def _lost(self) -> bool:
        """Has a worker holding partitions left the cluster? Asked of the scheduler until it says so, for
        :data:`CONNECT_SECONDS` at most: a call to a lost worker can fail before the scheduler knows."""
        deadline = time.monotonic() + CONNECT_SECONDS
        while True:
            alive = set(self.client.run_on_scheduler(_workers_of))  # type: ignore[no-untyped-call]
            if any(holder._address not in alive for holder in self.holders):
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.5)

    def run(self, partitions: int, progress: Progress | None, resume: bool) -> ClusterSolution:
        saved = self._saved() if resume else None
        rows = -(-self.classes // _ROW)
        bounds = [int(b) for b in saved["bounds"]] if saved else [rows * p // partitions for p in range(partitions + 1)]
        plies, count, done, seconds = self._take_up(saved, bounds)
        last_saved = seconds
        began = time.perf_counter() - seconds
        exchanged: int | None = None
        losses = 0
        while count > 0:
            try:
                seconds = time.perf_counter() - began
                if seconds - last_saved >= self.every:
                    self._save(bounds, plies, done, seconds)
                    last_saved = seconds
                    saved = self._saved()
                if progress:
                    progress(Level(plies, count, done + count, self.classes, seconds, "classes", exchanged))
                if plies + 1 > MAX_DISTANCE:
                    raise OverflowError(f"distance {plies + 1} does not fit the table encoding")
                exchanged, new = 0, 0
                for round_ in range(max(self._all("begin", plies))):
                    exchanged += sum(self._all("route", round_))
                    new = sum(answer.result() for answer in [holder.settle(round_, self.holders, k)
                                                             for k, holder in enumerate(self.holders)])
            except Exception:  # a lost worker's calls fail in many ways; anything else is raised again
                if not self._lost():
                    raise
                losses += 1
                if losses > _LOSSES:
                    raise ClusterError(f"lost workers {losses} times in a row; the state saved in {self.directory} "
                                       "continues the solve with --resume") from None
                logging.getLogger(__name__).warning("a worker was lost at ply %d; taking up the state saved at ply %s",
                                                    plies, saved["plies"] if saved else "0 (none saved)")
                self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
                plies, count, done, _ = self._take_up(saved, bounds)
                continue
            losses = 0
            done += count
            plies += 1
            count = new
        seconds = time.perf_counter() - began
        self._all("finish")
        return self._finished(bounds, seconds)

    def _finished(self, bounds: list[int], seconds: float) -> ClusterSolution:
        """The solution, counted (and digested) as its bytes are fetched a piece at a time."""
        def pieces() -> Iterator[np.ndarray]:
            for holder, held in zip(self.holders, self.held):
                size = min(bounds[held[-1] + 1] * _ROW, self.classes) - bounds[held[0]] * _ROW
                for start in range(0, size, _PIECE):
                    piece: np.ndarray = holder.piece(start, min(start + _PIECE, size)).result()
                    yield piece

        digest = hashlib.sha256()

        def stretches() -> Iterator[tuple[int, np.ndarray]]:
            covered = 0
            for piece in pieces():
                digest.update(piece.data)
                yield covered, piece
                covered += len(piece)

        summary = summarize_folded_stretches(self.game, stretches())
        return ClusterSolution(self.game, summary, seconds,
                               Pieces(self.classes, np.dtype(np.uint8), "sha256:" + digest.hexdigest(), pieces))


def discard(directory: Path) -> None:
    """Remove the state saved in ``directory`` (the table is written), and the directory if nothing else
    is left in it."""
    (directory / CLUSTER_STATE).unlink(missing_ok=True)
    for level in directory.glob("level-*"):
        shutil.rmtree(level, ignore_errors=True)
    try:
        os.rmdir(directory)
    except OSError:
        pass


#: Stretches of rows per worker in the forward check: each worker's share comes in this many tasks, so
#: that the progress moves and a worker lost costs a stretch.
_CHECK_STRETCHES = 16


def check_on_cluster(client: distributed.Client, game: Game, path: Path, listed: int,
                     progress: check.Progress | None = None) -> CheckReport:
    """The forward check of the folded table of ``game`` at ``path`` (which every worker must read at that
    path) on the workers of ``client``, each checking whole rows (the triples of the other side) of the
    table it reads itself, as :func:`solver.neutreeko.checking.check.check_folded` does on one machine
    (the same report; ``listed`` and ``progress`` alike). Raises :class:`~solver.core.errors.ClusterError` before any work
    if a worker runs other code or cannot read the table."""
    from solver.neutreeko.tables.table import open_table

    table = open_table(game, path)
    if not table.folded:
        raise ClusterError(f"{str(path)[:60]} is not folded: --cluster checks the folded tables (solve --fold)")
    where = str(path.resolve())
    size = path.stat().st_size
    workers = check_workers(client, _sees, where, size)
    began = time.perf_counter()
    rows = math.comb(game.board.size, 3)
    cuts = np.linspace(0, rows, min(rows, _CHECK_STRETCHES * len(workers)) + 1).astype(np.int64).tolist()
    key = (str(game.board), game.rule.name, where, size)
    wrong = np.zeros(rows, dtype=np.int64)
    checked = done = 0
    tasks = [client.submit(_check_rows, *key, first, last, pure=False) for first, last in zip(cuts[:-1], cuts[1:])]
    for future in distributed.as_completed(tasks):  # type: ignore[no-untyped-call]
        first, counts, met = future.result()
        wrong[first:first + len(counts)] = counts
        checked += met
        done += len(counts)
        if progress is not None:
            classes = int(table.attributes["classes"])
            progress(CheckStep("classes", round(classes * done / rows), classes, time.perf_counter() - began))
    total = int(wrong.sum())
    found, expected = np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    if total and listed:
        offsets = np.where(wrong > 0, np.cumsum(wrong) - wrong, -1)
        offsets[offsets >= listed] = -1
        size_listed = min(total, listed)
        found, expected = np.full(size_listed, -1, dtype=np.int64), np.full(size_listed, -1, dtype=np.int64)
        stretches = [(first, last) for first, last in zip(cuts[:-1], cuts[1:]) if np.any(offsets[first:last] >= 0)]
        listing = [client.submit(_list_rows, *key, first, last, offsets, size_listed, pure=False)
                   for first, last in stretches]
        for future in distributed.as_completed(listing):  # type: ignore[no-untyped-call]
            theirs, their_expected = future.result()
            mine = theirs >= 0
            found[mine], expected[mine] = theirs[mine], their_expected[mine]
    return folded_report(game, total, found, expected, checked, lambda numbers: table.chunks.take(numbers),
                         time.perf_counter() - began)


@functools.lru_cache(maxsize=1)
def _rows_checker(board: str, rule: str, path: str, size: int) -> tuple[Callable[..., None], np.ndarray]:
    """On a worker: the check of rows of the folded table at ``path`` (read whole once, and kept)."""
    from solver.neutreeko.checking.check import folded_rows
    from solver.neutreeko.tables.table import open_table

    game = Game.of(board, rule)
    return folded_rows(game, open_table(game, Path(path)).data)


def _check_rows(board: str, rule: str, path: str, size: int, first: int, last: int) -> tuple[int, np.ndarray, int]:
    """On a worker: the first pass of the check over rows ``first`` to ``last - 1``: ``first``, the
    inconsistencies of each row, and the classes met."""
    run, checked = _rows_checker(board, rule, path, size)
    wrong = np.zeros(len(checked), dtype=np.int64)
    checked[first:last] = 0
    run(wrong, False, np.empty(0, dtype=np.int64), np.full(len(checked), -1, dtype=np.int64),
        np.empty(0, dtype=np.int64), first, last)
    return first, wrong[first:last], int(checked[first:last].sum())


def _list_rows(board: str, rule: str, path: str, size: int, first: int, last: int, offsets: np.ndarray,
               listed: int) -> tuple[np.ndarray, np.ndarray]:
    """On a worker: the second pass over rows ``first`` to ``last - 1``: the classes listed (at the
    ``offsets`` of their rows, -1 elsewhere) and the bytes expected there."""
    run, checked = _rows_checker(board, rule, path, size)
    found, expected = np.full(listed, -1, dtype=np.int64), np.full(listed, -1, dtype=np.int64)
    run(np.zeros(len(checked), dtype=np.int64), True, found, offsets, expected, first, last)
    return found, expected
