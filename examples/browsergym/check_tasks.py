"""Every task's oracle through BrowserGym: reset, ``cheat``, ``validate`` must give reward 1.

    .venv/bin/python check_tasks.py [PATTERN ...]      # substrings of gym ids, e.g. meridian pelagic

Prints one line per task and exits non-zero when any task scores below 1 or breaks.
"""
from __future__ import annotations

import sys
import time

import gymnasium as gym

import deskworld_browsergym as dbg


def main(patterns: list[str]) -> int:
    ids = [g for g in dbg.TASK_IDS if not patterns or any(p in g for p in patterns)]
    bad = 0
    for gid in ids:
        t0 = time.perf_counter()
        env = gym.make(gid, disable_env_checker=True)
        try:
            env.reset(seed=0)
            bgenv = env.unwrapped
            messages: list[dict] = []
            bgenv.task.cheat(bgenv.page, messages)
            reward, done, _, info = bgenv.task.validate(bgenv.page, messages)
            misses = [line for line in info["result"]["lines"] if line.startswith(("✗", "!"))]
            verdict = f"{reward:.2f}" + (f"  {misses}" if misses else "")
            bad += reward < 1.0 or not done
        except Exception as e:
            verdict = f"ERROR {type(e).__name__}: {str(e).splitlines()[0][:200]}"
            bad += 1
        finally:
            env.close()
        print(f"{gid.removeprefix('browsergym/'):60s} {time.perf_counter() - t0:5.1f}s  {verdict}", flush=True)
    print(f"{len(ids) - bad}/{len(ids)} tasks scored 1.0 through BrowserGym")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
