"""An engine program that breaks the protocol on purpose, for the match's adjudication.

``python misbehaving_engine.py MODE``: it answers ``ugi`` and ``isready`` properly,
then at each ``go``:

* ``illegal``: answers ``bestmove Z9`` (no such cell);
* ``occupied``: places on A1 whatever the board (taken after the first time);
* ``silent``: says nothing;
* ``crash``: exits.
"""

from __future__ import annotations

import sys


def main() -> None:
    mode = sys.argv[1]
    placed = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "ugi":
            print("id name misbehaving", flush=True)
            print("ugiok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            placed = "moves" in words
        elif words[0] == "go":
            if mode == "crash":
                sys.exit(3)
            if mode == "illegal":
                print("bestmove Z9", flush=True)
            elif mode == "occupied":
                print(f"bestmove {'A10' if placed else '0'}", flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
