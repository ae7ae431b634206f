"""One search in a fresh engine process, as the scripts run it."""
import subprocess
import time


def search_once(engine, commands, timeout):
    """Starts `engine`, sends `commands` (the last a `go`), and returns the
    output lines up to and including the `bestmove` or `nobestmove` line
    (fewer if `timeout` seconds pass first); then quits the engine."""
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    p.stdin.write("".join(c + "\n" for c in commands))
    p.stdin.flush()
    lines = []
    deadline = time.monotonic() + timeout
    for line in p.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith(("bestmove", "nobestmove")) or time.monotonic() > deadline:
            break
    p.stdin.write("quit\n")
    p.stdin.close()
    p.wait(timeout=10)
    return lines
