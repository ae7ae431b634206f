#!/usr/bin/env python3
"""Cross-check a chariot-match PGN with an independent rules implementation.

Every game is replayed with PyPI's pyffish (Fairy-Stockfish's rules, ranks
converted from 0-9 to 1-10, the 60-move rule as in docs/RULES.md): each move must
be legal, and a game the runner ended by the rules (mate, stalemate, perpetual
check or chase, repetition, move limit) must end where pyffish also sees the
game over, with the same result. Games ended otherwise (resignation, time,
crash, illegal move, adjudication) are checked for legal moves only.

Usage: scripts/oracles/check_pgn.py GAMES.pgn
Exits 0 when every game agrees, 1 otherwise.
"""
import re
import sys

RULE_ENDS = ("mates", "stalemate", "perpetual", "repetition", "move limit")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-2])
    try:
        import pyffish as sf
    except ImportError:
        sys.exit("check_pgn: pyffish is missing (pip install pyffish)")
    sf.load_variant_config("[xiangqi60:xiangqi]\nnMoveRule = 60\n")
    variant = "xiangqi60"

    def pf(m):
        return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"

    text = open(sys.argv[1], encoding="utf-8").read().strip()
    games = [g for g in re.split(r"\n\n(?=\[Event )", text) if g.strip()]
    bad = 0
    for game in games:
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', game, re.M))
        body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
        comments = re.findall(r"\{([^}]*)\}", body)
        reason = " ".join(comments[-1].split()) if comments else ""
        moves = [t for t in re.sub(r"\{[^}]*\}", " ", body).split()
                 if re.fullmatch(r"[a-i][0-9][a-i][0-9]", t)]
        fen, played, problem = tags.get("FEN", ""), [], None
        for m in moves:
            if pf(m) not in sf.legal_moves(variant, fen, played):
                problem = f"illegal move {m} after {len(played)} plies"
                break
            played.append(pf(m))
        if problem is None and any(r in reason for r in RULE_ENDS):
            if not sf.legal_moves(variant, fen, played):
                value = sf.game_result(variant, fen, played)
            else:
                over, value = sf.is_optional_game_end(variant, fen, played)
                if not over:
                    problem = f"the runner says '{reason}' but pyffish plays on"
            if problem is None:
                side = fen.split()[1] if len(fen.split()) > 1 else "w"
                red_to_move = (side in ("w", "r")) == (len(played) % 2 == 0)
                red_value = value if red_to_move else -value
                expected = "1-0" if red_value > 0 else "0-1" if red_value < 0 else "1/2-1/2"
                if expected != tags.get("Result"):
                    problem = f"result {tags.get('Result')}, pyffish says {expected}"
        status = "ok" if problem is None else f"MISMATCH: {problem}"
        print(f"game {tags.get('Round', '?'):>4} {tags.get('Result', '?'):>7} "
              f"{len(moves):3d} plies  {reason[:60]:60s} {status}")
        bad += problem is not None
    print(f"check_pgn: {len(games) - bad} of {len(games)} games agree with pyffish")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
