#!/usr/bin/env python3
"""Fails when a module other than SystemSupport calls the C library's
system interface directly (files, descriptors, sockets, terminals, errno,
`import Glibc`).

SystemSupport is the one home of the package's platform code: its
FileSystem, RegularFile, ReadOnlyFile, DurableFile, FileLock, FolderListing,
FolderTreeWatcher, Descriptor, TerminalPort and LoopbackSocket. Everything
else calls those, so a port to another system touches one module.

  check-platform.py          list the calls found in Sources/ and Examples/
                             (outside SystemSupport); exit 1 if any
  check-platform.py --count  print the number of files that make them
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CALLS = """
open close read write pread pwrite fsync fdatasync fstat stat lstat fchmod unlink rename
mkdir rmdir access opendir readdir closedir socket socketpair bind listen accept connect
send recv shutdown setsockopt getsockname poll select pipe fcntl ioctl isatty tcgetattr
tcsetattr cfmakeraw inotify_init1 inotify_add_watch inotify_rm_watch flock usleep nanosleep
strerror sigaction kill dup dup2 mmap munmap memchr readlink symlink chmod chown truncate ftruncate
""".split()
CALL = re.compile(r"(?<![\w.])(" + "|".join(CALLS) + r")\s*\(")
DECLARATION = re.compile(r"\b(func|case|init)\b")
ERRNO = re.compile(r"(?<![\w.])errno\b(?!\s*:)")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
FUNC = re.compile(r"\bfunc\s+(\w+)")
IMPORT = re.compile(r"^\s*(@preconcurrency\s+)?import\s+(Glibc|Darwin|Musl)\b")


def module_of(relative):
    return relative.parts[:2]


def findings():
    files = [
        path.relative_to(ROOT)
        for folder in ("Sources", "Examples")
        for path in sorted((ROOT / folder).rglob("*.swift"))
        if path.relative_to(ROOT).parts[:2] != ("Sources", "SystemSupport")
    ]
    # A module's own methods named like a C call (WeiboAPI.read, Console.write) are not the C call.
    declared = {}
    for relative in files:
        declared.setdefault(module_of(relative), set()).update(FUNC.findall((ROOT / relative).read_text()))
    for relative in files:
        own = declared[module_of(relative)]
        for number, line in enumerate((ROOT / relative).read_text().splitlines(), 1):
            code = STRING.sub('""', line.split("//", 1)[0])
            if IMPORT.search(code):
                yield relative, number, "import " + IMPORT.search(code).group(2)
                continue
            if DECLARATION.search(code):
                continue
            for match in CALL.finditer(code):
                # An awaited call is Swift's (a C call is never async).
                if match.group(1) not in own and not code[: match.start()].rstrip().endswith("await"):
                    yield relative, number, match.group(1) + "()"
            if ERRNO.search(code):
                yield relative, number, "errno"


def main(argv):
    found = list(findings())
    if "--count" in argv:
        print(len({path for path, _, _ in found}))
        return 0
    for path, number, what in found:
        print(f"{path}:{number}: {what} outside SystemSupport")
    if found:
        print(f"{len(found)} platform calls in {len({p for p, _, _ in found})} files: move them behind SystemSupport", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
