"""What the benchmark scripts share: one way to put a section into
BENCHMARKS.md. Import it from a script in this folder (`import benchmarks`);
`update-benchmarks.py` is the same as a command.
"""
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def write_section(name, section):
    """Puts `section` (it starts with `<!-- NAME:begin -->` and ends with
    `<!-- NAME:end -->`) into BENCHMARKS.md in place of the section between
    the same markers, or appends it. Raises ValueError for a section
    without its markers."""
    section = section.strip("\n")
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if not (section.startswith(begin) and section.endswith(end)):
        raise ValueError(f"the section must start with {begin} and end with {end}")
    path = os.path.join(ROOT, "BENCHMARKS.md")
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n\nEvery figure here comes from a script in `scripts/`; rerun it to refresh its section.\n"
    if begin in text:
        text = re.sub(re.escape(begin) + r".*" + re.escape(end), lambda _: section, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    with open(path, "w") as f:
        f.write(text)


def publish(name, lines):
    """Joins `lines` into the section, prints it and writes it (see
    `write_section`)."""
    section = "\n".join(lines)
    print(section)
    write_section(name, section)


def interleaved(commands, rounds, env=None):
    """Times whole processes in rounds: each round runs every command once,
    the order rotating from round to round, so a machine that speeds up or
    slows down during the run (a shared one does, by 30% and more) weighs on
    every command alike. `commands` maps a name to an argument list. Returns
    {name: [(wall seconds, CPU seconds), ...]} with one entry per round."""
    import subprocess
    import time

    names = list(commands)
    times = {name: [] for name in names}
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            process = subprocess.Popen(commands[name], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - start
            if status != 0:
                raise RuntimeError(f"{name} failed ({status}): {' '.join(commands[name])}")
            times[name].append((wall, usage.ru_utime + usage.ru_stime))
    return times
