"""The search kernel in plain Python: the fallback where ``_kernel.c`` was not compiled.

This module follows the compiled kernel (``core/search.c``, bound by
``_kernel.c``) step for step (same board state, same move order, same table
layout and replacement), so both visit the same nodes and return the same
scores; only the speed differs.  Read the C file's header for the ideas; the
comments here only point out what the Python spelling hides.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

__all__ = ["WIN", "Control", "Engine"]

WIN = 100
FLUSH_EVERY = 4096
BUCKET = 4
_FLAG_LOWER, _FLAG_UPPER, _FLAG_EXACT = 1, 2, 3
_M64 = (1 << 64) - 1


class _StopSearchError(Exception):
    """Raised inside the search when the budget is spent."""


class Control:
    """Node and time budget shared by searches, and their node count."""

    def __init__(
        self, node_limit: int = 0, seconds: float = 0.0, parent: Control | None = None
    ) -> None:
        self._parent = parent
        self._nodes = 0
        self._node_limit = max(node_limit, 0)
        self._deadline = time.monotonic() + seconds if seconds > 0 else 0.0
        self._stop = False

    @property
    def nodes(self) -> int:
        """Nodes searched so far (updated in batches)."""
        return self._nodes

    @property
    def stopped(self) -> bool:
        """Whether a limit was hit or :meth:`stop` called."""
        return self._stop

    def stop(self) -> None:
        """Make every search using this control stop."""
        self._stop = True

    def _flush(self, pending: int) -> bool:
        """Add ``pending`` nodes here and to the ancestors; whether the search must stop."""
        stop = False
        control: Control | None = self
        while control is not None:
            control._nodes += pending
            if control._stop:
                stop = True
            elif (control._node_limit and control._nodes >= control._node_limit) or (
                control._deadline and time.monotonic() >= control._deadline
            ):
                control._stop = True
                stop = True
            control = control._parent
        return stop


# A board is a list: [dcell (16 ints), common (list), s2, s3, s4, occ, bits (4 ints)].
_DCELL, _COMMON, _S2, _S3, _S4, _OCC, _BITS = range(7)
Board = list[Any]


def _pop(x: int) -> int:
    return x.bit_count()


def _ctz(x: int) -> int:
    return (x & -x).bit_length() - 1


def _pack_sorted(cols: list[int]) -> int:
    a, b, c, d = sorted(cols)
    return a << 48 | b << 32 | c << 16 | d


def _key_hash(occ: int, cols: int) -> int:
    h = ((cols * 0x9E3779B97F4A7C15) & _M64) ^ ((occ * 0xC2B2AE3D27D4EB4F) & _M64)
    h ^= h >> 29
    h = (h * 0xBF58476D1CE4E5B9) & _M64
    h ^= h >> 32
    return h


class Engine:
    """The rules of one solve and its transposition table."""

    def __init__(
        self,
        shapes: Sequence[int],
        traits: int,
        symmetries: Sequence[Sequence[int]],
        table_entries: int,
        tt_min: int = 6,
        canon_min: int = 10,
        order_min: int = 6,
    ) -> None:
        if not 1 <= traits <= 15:
            raise ValueError("traits: expected a mask 1-15")
        if table_entries < BUCKET or table_entries & (table_entries - 1):
            raise ValueError("table_entries: expected a power of two, at least 4")
        self.shapes = list(shapes)
        self.traits = traits
        self.dedupe = traits != 15
        self.init_common = traits | traits << 4
        self.pm = [(p & traits) | ((~p & traits) << 4) for p in range(16)]
        self.dt = [0] * 256
        for cm in range(256):
            self.dt[cm] = sum(1 << p for p in range(16) if cm & self.pm[p])
        self.t2 = [[self.dt[cm & self.pm[q]] for q in range(16)] for cm in range(256)]
        self.cs = [[s for s, m in enumerate(self.shapes) if m >> c & 1] for c in range(16)]
        self.csm = [sum(1 << s for s in cs) for cs in self.cs]
        self.perms = [list(p) for p in symmetries]
        self.tt_min = tt_min
        self.canon_min = canon_min
        self.order_min = order_min
        self.mask = table_entries // BUCKET - 1
        # Each slot holds [check, data] as in the C table.
        self.table: list[list[int] | None] = [None] * (table_entries // BUCKET)
        self.table_bytes = table_entries * 16

    # -- board ---------------------------------------------------------------

    def _empty(self) -> Board:
        return [[0] * 16, [self.init_common] * len(self.shapes), 0, 0,
                (1 << len(self.shapes)) - 1, 0, [0, 0, 0, 0]]

    def _place(self, src: Board, c: int, p: int) -> Board:
        bit = 1 << c
        occ = src[_OCC] | bit
        bits = list(src[_BITS])
        for b in range(4):
            if p >> b & 1:
                bits[b] |= bit
        dcell = list(src[_DCELL])
        dcell[c] = 0
        common = list(src[_COMMON])
        pm = self.pm[p]
        for s in self.cs[c]:
            common[s] &= pm
        m = self.csm[c]
        to1, to2, to3 = m & src[_S2], m & src[_S3], m & src[_S4]
        free = ~occ
        while to1:
            s = _ctz(to1)
            to1 &= to1 - 1
            dcell[_ctz(self.shapes[s] & free)] |= self.dt[common[s]]
        return [dcell, common, (src[_S2] & ~m) | to2, (src[_S3] & ~m) | to3,
                src[_S4] & ~m, occ, bits]

    def _board(self, occ: int, cells: int) -> Board:
        board = self._empty()
        for c in range(16):
            if occ >> c & 1:
                board = self._place(board, c, cells >> (4 * c) & 15)
        return board

    @staticmethod
    def _danger_except(board: Board) -> list[int]:
        dcell = board[_DCELL]
        pre = [0] * 17
        for i in range(16):
            pre[i + 1] = pre[i] | dcell[i]
        dex = [0] * 16
        suf = 0
        for i in range(15, -1, -1):
            dex[i] = pre[i] | suf
            suf |= dcell[i]
        return dex

    def _danger_after(self, board: Board, dex_d: int, d: int, p: int) -> int:
        dg = dex_d
        pm = self.pm[p]
        common = board[_COMMON]
        m = self.csm[d] & board[_S2]
        while m:
            s = _ctz(m)
            m &= m - 1
            dg |= self.dt[common[s] & pm]
        return dg

    # -- keys ----------------------------------------------------------------

    def _make_key(self, board: Board, hand: int, canon: bool) -> tuple[int, int]:
        occ = board[_OCC]
        cols = [
            0 if not self.traits >> t & 1 else board[_BITS][t] ^ (occ if hand >> t & 1 else 0)
            for t in range(4)
        ]
        if not canon or len(self.perms) == 1:
            return occ, _pack_sorted(cols)
        best_occ, best_cols = 0x10000, 0
        for perm in self.perms:
            o = _permute(occ, perm)
            if o > best_occ:
                continue
            k = _pack_sorted([_permute(col, perm) for col in cols])
            if o < best_occ or k < best_cols:
                best_occ, best_cols = o, k
        return best_occ, best_cols

    def key(self, occupied: int, cells: int, hand: int, canonical: bool, /) -> int:
        """The table key of a position (as ``_kernel.Engine.key``)."""
        occ, cols = self._make_key(self._board(occupied, cells), hand, canonical)
        return occ << 64 | cols

    # -- table ---------------------------------------------------------------

    def _probe(self, index: int, occ: int, cols: int) -> tuple[int, int] | None:
        slots = self.table[index]
        if slots is None:
            return None
        for i in range(BUCKET):
            check, data = slots[2 * i], slots[2 * i + 1]
            if data & 0xFFFF == occ and (data >> 24) & 3 and check ^ data == cols:
                return (data >> 24) & 3, ((data >> 16) & 0xFF) - 128
        return None

    def _store(self, index: int, occ: int, cols: int, flag: int, score: int, empties: int) -> None:
        slots = self.table[index]
        if slots is None:
            slots = self.table[index] = [0] * (2 * BUCKET)
        victim, victim_empties = -1, 99
        for i in range(BUCKET):
            check, data = slots[2 * i], slots[2 * i + 1]
            if not (data >> 24) & 3:
                if victim_empties > -1:
                    victim, victim_empties = i, -1
                continue
            if data & 0xFFFF == occ and check ^ data == cols:
                victim = i
                break
            e = (data >> 26) & 31
            if e < victim_empties:
                victim, victim_empties = i, e
        data = occ | (score + 128) << 16 | flag << 24 | empties << 26
        slots[2 * victim + 1] = data
        slots[2 * victim] = cols ^ data

    # -- moves ---------------------------------------------------------------

    def _score_moves(
        self, board: Board, hand: int, supply: int, dedupe: bool, stop_on_win: bool,
        boards: dict[int, Board],
    ) -> list[tuple[int, int, int, int]] | None:
        """Moves as ``(cell, piece, key, mobility)`` in search order (see ``score_moves``)."""
        dex = self._danger_except(board)
        scored: list[tuple[int, int, int, int, int]] = []
        free = ~board[_OCC] & 0xFFFF
        while free:
            c = _ctz(free)
            free &= free - 1
            safe = supply & ~self._danger_after(board, dex[c], c, hand)
            if not safe:
                continue
            nb = boards[c] = self._place(board, c, hand)
            dex2 = self._danger_except(nb)
            tot = [0] * 16
            mob = [0] * 16
            common = nb[_COMMON]
            f2 = ~nb[_OCC] & 0xFFFF
            while f2:
                d = _ctz(f2)
                f2 &= f2 - 1
                acc = [dex2[d]] * 16
                m = self.csm[d] & nb[_S2]
                while m:
                    sh = _ctz(m)
                    m &= m - 1
                    row = self.t2[common[sh]]
                    acc = [a | r for a, r in zip(acc, row, strict=True)]
                for q in range(16):
                    sf = supply & ~(1 << q) & ~acc[q]
                    tot[q] += _pop(sf)
                    mob[q] += sf != 0
            seen = 0
            while safe:
                q = _ctz(safe)
                safe &= safe - 1
                if dedupe:
                    cls = 1 << (q & self.traits)
                    if seen & cls:
                        continue
                    seen |= cls
                key = 0
                rest = supply & ~(1 << q)
                if rest:
                    if not mob[q] and stop_on_win:
                        return None
                    key = tot[q]
                scored.append((key, len(scored), c, q, mob[q] if rest else 16))
        scored.sort()
        return [(c, q, key, mobility) for key, _, c, q, mobility in scored]

    def moves(
        self, occupied: int, cells: int, hand: int, supply: int, /
    ) -> list[tuple[int, int, int, int]]:
        """Every move with a safe hand-over, as ``(cell, piece, key, mobility)`` in search order."""
        moves = self._score_moves(self._board(occupied, cells), hand, supply, False, False, {})
        assert moves is not None
        return moves

    # -- search --------------------------------------------------------------

    def search(
        self, control: Control, occupied: int, cells: int, hand: int, supply: int,
        ply: int, alpha: int, beta: int, threads: int = 1, /,
    ) -> int | None:
        """The score of the position, or ``None`` when the budget ran out first.

        ``threads`` is accepted for the compiled kernel's sake: this one searches alone.
        """
        if alpha >= beta or not 0 <= ply <= 16 or threads < 1:
            raise ValueError("search: argument out of range")
        run = _Run(self, control)
        try:
            score = run.search(self._board(occupied, cells), hand, supply, ply, alpha, beta)
        except _StopSearchError:
            return None
        control._flush(run.pending)
        return score


def _permute(mask: int, perm: list[int]) -> int:
    out = 0
    while mask:
        c = _ctz(mask)
        mask &= mask - 1
        out |= 1 << perm[c]
    return out


class _Run:
    """One search call: the engine, the budget and the nodes not yet counted."""

    def __init__(self, engine: Engine, control: Control) -> None:
        self.e = engine
        self.control = control
        self.pending = 0

    def search(self, board: Board, hand: int, supply: int, ply: int, alpha: int, beta: int) -> int:
        self.pending += 1
        if self.pending >= FLUSH_EVERY:
            pending, self.pending = self.pending, 0
            if self.control._flush(pending):
                raise _StopSearchError
        if not supply:
            return 0
        e = self.e
        empties = 16 - _pop(board[_OCC])
        lo = -(WIN - ply - 2)
        hi = WIN - ply - 3 if empties >= 3 else 0
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        alpha0 = alpha

        probe = empties >= e.tt_min
        kocc = kcols = index = 0
        if probe:
            kocc, kcols = e._make_key(board, hand, empties >= e.canon_min)
            index = _key_hash(kocc, kcols) & e.mask
            hit = e._probe(index, kocc, kcols)
            if hit is not None:
                flag, v = hit
                if v > 0:
                    v -= ply
                elif v < 0:
                    v += ply
                if flag == _FLAG_EXACT:
                    return v
                if flag == _FLAG_LOWER:
                    if v >= beta:
                        return v
                    alpha = max(alpha, v)
                else:
                    if v <= alpha:
                        return v
                    beta = min(beta, v)

        best = lo
        if empties >= e.order_min or empties == 3:
            boards: dict[int, Board] = {}
            moves = e._score_moves(board, hand, supply, e.dedupe, True, boards)
            if moves is None:
                best = hi
            elif empties == 3:
                if moves:
                    best = 0
            else:
                for c, q, _, _ in moves:
                    v = -self.search(boards[c], q, supply & ~(1 << q), ply + 1, -beta, -alpha)
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
        else:
            best = self._search_small(board, hand, supply, ply, alpha, beta, best, empties)

        if probe:
            flag = _FLAG_UPPER if best <= alpha0 else _FLAG_LOWER if best >= beta else _FLAG_EXACT
            rel = best + ply if best > 0 else best - ply if best < 0 else 0
            e._store(index, kocc, kcols, flag, rel, empties)
        return best

    def _search_small(
        self, board: Board, hand: int, supply: int, ply: int, alpha: int, beta: int,
        best: int, empties: int,
    ) -> int:
        """Near the end: placements with the fewest safe pieces first."""
        e = self.e
        dex = e._danger_except(board)
        children: list[tuple[int, int, int]] = []
        free = ~board[_OCC] & 0xFFFF
        while free:
            c = _ctz(free)
            free &= free - 1
            safe = supply & ~e._danger_after(board, dex[c], c, hand)
            if safe:
                children.append((_pop(safe), c, safe))
        if empties <= 2:
            return 0 if children else best
        children.sort(key=lambda child: child[0])  # stable, as the C insertion sort
        for _, c, safe in children:
            child = e._place(board, c, hand)
            seen = 0
            while safe:
                q = _ctz(safe)
                safe &= safe - 1
                if e.dedupe:
                    cls = 1 << (q & e.traits)
                    if seen & cls:
                        continue
                    seen |= cls
                v = -self.search(child, q, supply & ~(1 << q), ply + 1, -beta, -alpha)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            return best
        return best
