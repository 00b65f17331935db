#!/usr/bin/env python3
"""Fails on source shapes a Swift toolchain PhotoDeck builds with is known
to miscompile in release builds, so that none can come back unnoticed.

One shape is known (Documentation/CompilerBugs/TupleHoldingTryAwait.md):
Swift 6.3.1 at -O gives a wrong value for a captured variable in an async
closure (a task group's child, a `Task`) that returns a tuple literal
holding `try await` of a function with typed throws, inside a `do`:

    group.addTask {
        do throws(LoadError) {
            return (index, .success(try await image(request)))   // index comes back wrong
        } catch { ... }
    }

The debug build is right. Binding the awaited value first is right in both:

    let bitmap = try await image(request)
    return (index, .success(bitmap))

The check is wider than the bug on purpose: every tuple literal (a
parenthesised list with a top-level comma that is not a call's arguments)
holding `try await` anywhere inside it is refused, in a closure or not,
typed throws or not; the rewrite costs one line and the reader never has
to decide whether a case is the dangerous one.

  check-miscompiles.py             list the shapes found in Sources/, Examples/,
                                   Tests/, Benchmarks/ and Fuzz/; exit 1 if any
  check-miscompiles.py --self-test check the reader on samples, exit 1 on a miss
"""
import pathlib
import re
import sys

from swift_source import code_of, findings_in, self_test

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = ("Sources", "Examples", "Tests", "Benchmarks", "Fuzz")
TRY_AWAIT = re.compile(r"\btry\s+await\b")
IDENT_END = re.compile(r"[A-Za-z_0-9]$")
# Words after which `(` opens an expression, not a call's arguments.
KEYWORDS = {"return", "in", "throw", "try", "await", "case", "else", "yield", "if", "while", "guard", "switch", "where", "is", "as"}
ADVICE = "bind the awaited value to a constant first, then build the tuple (a Swift 6.3.1 release-build miscompile)"


def enclosing_groups(code, position):
    """The `(` offsets enclosing `position`, innermost first, up to the
    innermost `{` (a closure's or a body's start)."""
    groups, depth = [], {"(": 0, "[": 0}
    i = position - 1
    while i >= 0:
        c = code[i]
        if c in ")]":
            depth["(" if c == ")" else "["] += 1
        elif c == "[":
            if depth["["]:
                depth["["] -= 1
        elif c == "(":
            if depth["("]:
                depth["("] -= 1
            else:
                groups.append(i)
        elif c == "{":
            # Skip a balanced `{ ... }` before the position (a closure argument); stop at an open one.
            return groups
        elif c == "}":
            level, i = 1, i - 1
            while i >= 0 and level:
                level += {"}": 1, "{": -1}.get(code[i], 0)
                i -= 1
            continue
        i -= 1
    return groups


def is_call(code, opening):
    """Whether the `(` at `opening` starts a call's (or a subscript's, or a
    declaration's) arguments rather than a tuple or a parenthesised expression."""
    before = code[:opening].rstrip()
    if not before:
        return False
    if IDENT_END.search(before):
        word = re.search(r"[A-Za-z_][A-Za-z_0-9]*$", before)
        return not (word and word.group(0) in KEYWORDS)
    # `f?(x)`, `a[i](x)`, `make<T>(x)` are calls; `ok ? (a, b) : c` is not (swift-format keeps a call's `(` adjacent).
    return before[-1] in ")]>?!" and len(before) == opening


def has_top_level_comma(code, opening):
    """Whether the group opened at `opening` holds a comma outside nested brackets and closures."""
    depth, i = 0, opening + 1
    while i < len(code):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return False
            depth -= 1
        elif c == "," and depth == 0:
            return True
        i += 1
    return False


def shapes_in(text):
    """The line of each tuple literal holding `try await` in Swift source `text`."""
    code = code_of(text)
    found = []
    for match in TRY_AWAIT.finditer(code):
        for opening in enclosing_groups(code, match.start()):
            if not is_call(code, opening) and has_top_level_comma(code, opening):
                line = code.count("\n", 0, opening) + 1
                if line not in found:
                    found.append(line)
                break
    return found


def findings():
    # The reduction keeps the shape on purpose: it is the regression test.
    return findings_in(ROOT, FOLDERS, shapes_in, skip=lambda relative: relative.parts[:2] == ("Tests", "ToolchainTests"))


SAMPLES = [
    # (source, lines that must be found)
    ("group.addTask {\n    do throws(E) {\n        return (index, .success(try await image(request)))\n    } catch { return (index, .failure(error)) }\n}", [3]),
    ("(outcome, name) = (try await wechat.send(message), wechat.displayName)", [1]),
    ("return (index: i, value: try await f())", [1]),
    ("let pairs = [(a, try await f())]", [1]),
    ("let value = try await f()\nreturn (index, .success(value))", []),
    ("return mk(index, try await image(index))", []),
    ("let (a, b) = try await pair()", []),
    ("return (try await f())", []),
    ('let s = "(a, try await b)"', []),
    ("// return (a, try await b)", []),
    ("print(path, try await store.importFile(at: path).isNew)", []),
    ("return try await run { (a, b) in a + b }", []),
    ("guard let (bytes, metadata) = try await read(key: key) else { return nil }", []),
    ("let x = try await g(items.map { ($0, 1) })", []),
    ("return ok ? (1, try await f()) : (0, [])", [1]),
]


def main(argv):
    if "--self-test" in argv:
        return self_test(SAMPLES, shapes_in)
    found = list(findings())
    for path, line in found:
        print(f"{path}:{line}: a tuple literal holds `try await`: {ADVICE}")
    if found:
        print(f"{len(found)} shapes; see Documentation/CompilerBugs/TupleHoldingTryAwait.md", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
