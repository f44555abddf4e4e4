from collections.abc import Sequence

WIN: int

class Control:
    def __init__(
        self, node_limit: int = 0, seconds: float = 0.0, parent: Control | None = None
    ) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def stopped(self) -> bool: ...
    def stop(self) -> None: ...

class Engine:
    def __init__(
        self,
        shapes: Sequence[int],
        traits: int,
        symmetries: Sequence[Sequence[int]],
        table_entries: int,
        tt_min: int = 6,
        canon_min: int = 10,
        order_min: int = 6,
    ) -> None: ...
    @property
    def table_bytes(self) -> int: ...
    def search(
        self,
        control: Control,
        occupied: int,
        cells: int,
        hand: int,
        supply: int,
        ply: int,
        alpha: int,
        beta: int,
        threads: int = 1,
        /,
    ) -> int | None: ...
    def key(self, occupied: int, cells: int, hand: int, canonical: bool, /) -> int: ...
    def moves(
        self, occupied: int, cells: int, hand: int, supply: int, /
    ) -> list[tuple[int, int, int, int]]: ...
