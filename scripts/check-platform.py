#!/usr/bin/env python3
"""Fails when a module other than SystemSupport calls the C library's
system interface directly (files, descriptors, sockets, terminals,
processes, signals, threads and their scheduling, errno, `import Glibc`).

SystemSupport is the one home of the package's platform code (FileSystem,
RegularFile, DurableFile, FileLock, FolderListing, Descriptor, TerminalPort,
LoopbackSocket, CurrentThread, ChildProcess, SystemError...). Everything
else calls those, so a port to another system touches one module.

It reads call sites, not lines: comments and the text of string literals
are removed first, but the code inside an interpolation `\\( ... )` is kept
(a call hides there as well as anywhere). A name followed by `(` is a call
unless it is a member (`.read(`), a declaration (`func read(`, an enum's
`case read(`), awaited (a C call never is), or a function the same module declares (a module's own
`read(...)`, which the bare name then means).

  check-platform.py             list the calls found in Sources/ and Examples/
                                (outside SystemSupport); exit 1 if any
  check-platform.py --count     print the number of files that make them
  check-platform.py --self-test check the reader on samples, exit 1 on a miss
"""
import pathlib
import re
import sys

from swift_source import code_of, self_test

ROOT = pathlib.Path(__file__).resolve().parent.parent
CALLS = set("""
open openat close read write pread pwrite fsync fdatasync fstat stat lstat fchmod unlink unlinkat rename renameat
mkdir rmdir access opendir readdir closedir socket socketpair bind listen accept connect
send recv sendto recvfrom shutdown setsockopt getsockopt getsockname poll select pipe pipe2 fcntl ioctl isatty
tcgetattr tcsetattr cfmakeraw inotify_init1 inotify_add_watch inotify_rm_watch flock usleep nanosleep
strerror strerror_r perror sigaction sigprocmask sigemptyset sigaddset signal raise kill killpg dup dup2 mmap munmap
memchr readlink symlink chmod chown truncate ftruncate setpriority getpriority nice sched_yield sched_setaffinity
sched_getaffinity getpid getppid getuid geteuid fork vfork execv execve execvp waitpid wait4 posix_spawn posix_spawnp
sysconf getenv setenv unsetenv clock_gettime gettimeofday prctl syscall
""".split())
# Families named by prefix: every pthread_ and posix_spawn call.
FAMILIES = ("pthread_", "posix_spawn", "sched_")
QUALIFIED = re.compile(r"\b(Glibc|Darwin|Musl)\s*\.\s*(\w+)")
IMPORT = re.compile(r"^\s*(@preconcurrency\s+)?import\s+(Glibc|Darwin|Musl)\b", re.M)
FUNC = re.compile(r"\bfunc\s+(\w+)")
IDENT = re.compile(r"[A-Za-z_]\w*")


def calls_in(text, own=frozenset()):
    """(line, what) for each platform call in Swift source `text`."""
    code = code_of(text)
    for match in IMPORT.finditer(code):
        yield code.count("\n", 0, match.start()) + 1, "import " + match.group(2)
    for match in QUALIFIED.finditer(code):
        yield code.count("\n", 0, match.start()) + 1, f"{match.group(1)}.{match.group(2)}"
    for match in IDENT.finditer(code):
        name = match.group(0)
        if name not in CALLS and not name.startswith(FAMILIES) and name != "errno":
            continue
        before = code[: match.start()].rstrip()
        after = code[match.end():].lstrip()
        if before.endswith("."):
            continue
        previous = IDENT.findall(before[-40:])
        if previous and previous[-1] in ("func", "case", "var", "let", "await") and before.endswith(previous[-1]):
            continue  # a declaration, or an awaited call (a C call is never async)
        if name == "errno":
            if after.startswith(":"):  # an argument label or a parameter named errno
                continue
            yield code.count("\n", 0, match.start()) + 1, "errno"
        elif after.startswith("(") and name not in own:
            yield code.count("\n", 0, match.start()) + 1, name + "()"


def module_of(relative):
    return relative.parts[:2]


def findings():
    files = [
        path.relative_to(ROOT)
        for folder in ("Sources", "Examples")
        for path in sorted((ROOT / folder).rglob("*.swift"))
        if path.relative_to(ROOT).parts[:2] != ("Sources", "SystemSupport")
    ]
    declared = {}
    for relative in files:
        declared.setdefault(module_of(relative), set()).update(FUNC.findall(code_of((ROOT / relative).read_text())))
    for relative in files:
        for number, what in calls_in((ROOT / relative).read_text(), frozenset(declared[module_of(relative)])):
            yield relative, number, what


SAMPLES = [
    # (source, what must be found)
    ('case .system(let call, let code): "\\(call) failed: \\(String(cString: strerror(code)))"', ["strerror()"]),
    ("members.ids.withLock { _ = $0.insert(UInt(pthread_self())) }", ["pthread_self()"]),
    ("_ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)", ["setpriority()"]),
    ("init() { fd = open(path, O_RDONLY) }", ["open()"]),
    ("func f() { let code = errno }", ["errno"]),
    ('let s = #"a \\#(kill(1, 9)) b"#', ["kill()"]),
    ('let s = """\n  text \\(getpid())\n  """', ["getpid()"]),
    ("_ = Glibc.write(1, p, 2)", ["Glibc.write"]),
    ("import Glibc", ["import Glibc"]),
    ("handle.read(upToCount: 4)", []),
    ("func read(_ n: Int) -> Int { n }", []),
    ('let text = "strerror(code) and open(path)"', []),
    ("// open(path) in a comment\n/* kill(1) /* nested */ */", []),
    ("enum E { case write(Int) }", []),
    ("throw .system(call: \"poll\", errno: code)", []),
    ("return try await send(request)", []),
]


def main(argv):
    if "--self-test" in argv:
        return self_test(SAMPLES, lambda source: [what for _, what in calls_in(source)])
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
