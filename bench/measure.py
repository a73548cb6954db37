#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Run one command and print its wall time and peak RSS:

    measure.py [--cwd DIR] [--stderr FILE] [--timeout SEC] -- COMMAND [ARG]...
    -> "WALL_SECONDS PEAK_RSS_KB EXIT_STATUS"

After --timeout seconds the command is interrupted (SIGINT to its process
group, which GNU time ignores, then SIGKILL) and EXIT_STATUS is "timeout".

The command's stdout goes to /dev/null and its stderr to FILE (default
/dev/null).  Wall time is taken around posix_spawn and wait4.  The peak RSS
comes from GNU time (/usr/bin/time -f %M, Debian package "time"), which
runs the command: a process spawned straight from Python starts with
Python's RSS as its ru_maxrss (about 13 MB: the kernel carries the
high-water mark of the pre-exec address space over exec), while GNU time's
child starts from time's own ~2 MB.  Without /usr/bin/time the ru_maxrss of
the direct child is used, and small RSS figures are then floored at
Python's.
"""

import os
import signal
import sys
import tempfile
import time


def main():
    args = sys.argv[1:]
    cwd, err, timeout = None, os.devnull, 0.0
    while args and args[0] != "--":
        if args[0] == "--cwd":
            cwd = args[1]
        elif args[0] == "--stderr":
            err = os.path.abspath(args[1])
        elif args[0] == "--timeout":
            timeout = float(args[1])
        else:
            sys.exit("measure.py: unknown option %s" % args[0])
        args = args[2:]
    if not args or len(args) < 2:
        sys.exit(__doc__)
    cmd = args[1:]
    if cwd:
        os.chdir(cwd)
    actions = [
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
    ]
    gnu_time = "/usr/bin/time"
    rss_file = None
    if os.access(gnu_time, os.X_OK):
        fd, rss_file = tempfile.mkstemp(prefix="measure-")
        os.close(fd)
        cmd = [gnu_time, "-f", "%M", "-o", rss_file, "--"] + cmd
    try:
        timed_out = []

        def on_alarm(signum, frame):
            if not timed_out:
                timed_out.append(1)
                os.killpg(pid, signal.SIGINT)
                signal.setitimer(signal.ITIMER_REAL, 5.0)
            else:
                os.killpg(pid, signal.SIGKILL)

        signal.signal(signal.SIGALRM, on_alarm)
        t0 = time.perf_counter()
        pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=actions,
                              setsid=True)
        if timeout > 0:
            signal.setitimer(signal.ITIMER_REAL, timeout)
        _, status, ru = os.wait4(pid, 0)   # retried after the handler
        wall = time.perf_counter() - t0
        signal.setitimer(signal.ITIMER_REAL, 0)
        code = os.waitstatus_to_exitcode(status)
        rss = ru.ru_maxrss
        if rss_file:
            with open(rss_file) as fh:
                # A failing or interrupted command adds "Command exited
                # with non-zero status N" or "Command terminated by
                # signal N" before the figure.
                words = fh.read().split()
            rss = int(words[-1]) if words and words[-1].isdigit() else 0
        if timed_out:
            code = "timeout"
    finally:
        if rss_file:
            os.unlink(rss_file)
    print("%.4f %d %s" % (wall, rss, code))


if __name__ == "__main__":
    main()
