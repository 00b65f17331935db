"""What the scripts that read Swift sources share: the source with its
comments and the text of its string literals blanked, so that a check sees
only code. Offsets and line breaks are kept (a finding still names its
line), and the code inside an interpolation `\\( ... )` is kept too.
"""
import re
import sys


def code_of(text):
    """`text` with comments and string contents blanked (lengths and line
    breaks kept, so offsets still name lines); interpolations kept."""
    out = []
    i, n = 0, len(text)
    # A stack of contexts: "code" (with the depth of parentheses of an
    # interpolation it closes at), or a string with its delimiter.
    stack = [("code", None)]
    while i < n:
        kind, data = stack[-1]
        c = text[i]
        if kind == "code":
            if text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                out.append(" " * (end - i))
                i = end
            elif text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
                i = j
            elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
                hashes = len(re.match(r'#*', text[i:]).group(0))
                j = i + hashes
                delimiter = '"""' if text.startswith('"""', j) else '"'
                out.append(" " * (hashes + len(delimiter)))
                i = j + len(delimiter)
                stack.append(("string", (delimiter, hashes)))
            else:
                if data is not None:
                    if c == "(":
                        stack[-1] = ("code", data + 1)
                    elif c == ")":
                        if data == 0:
                            stack.pop()
                            out.append(" ")
                            i += 1
                            continue
                        stack[-1] = ("code", data - 1)
                out.append(c)
                i += 1
        else:
            delimiter, hashes = data
            escape = "\\" + "#" * hashes
            closing = delimiter + "#" * hashes
            if text.startswith(escape + "(", i):
                out.append(" " * (len(escape) + 1))
                i += len(escape) + 1
                stack.append(("code", 0))
            elif text.startswith(escape, i) and i + len(escape) < n:
                out.append(" " * (len(escape) + 1) if text[i + len(escape)] != "\n" else " " * len(escape) + "\n")
                i += len(escape) + 1
            elif text.startswith(closing, i):
                out.append(" " * len(closing))
                i += len(closing)
                stack.pop()
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
    return "".join(out)


def self_test(samples, read):
    """Checks a reader on `samples` ((source, what it must find) pairs):
    prints each miss and a summary, and returns the exit status."""
    misses = 0
    for source, wanted in samples:
        found = read(source)
        if found != wanted:
            misses += 1
            print(f"self-test: {source!r}: found {found}, wanted {wanted}", file=sys.stderr)
    print(f"self-test: {len(samples) - misses} of {len(samples)} samples read right")
    return 1 if misses else 0


def findings_in(root, folders, read, skip=lambda relative: False):
    """(path relative to `root`, line) for each line `read` finds in the
    Swift sources under `folders`, file by file in order; `skip` leaves out
    a file by its relative path."""
    for folder in folders:
        for path in sorted((root / folder).rglob("*.swift")):
            relative = path.relative_to(root)
            if skip(relative):
                continue
            for line in read(path.read_text()):
                yield relative, line
