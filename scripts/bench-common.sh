# Shared by the benchmark scripts (sourced after RUNS, WORK and PY are set):
# one way to time a command and one way to print a ratio.

# Median wall time of a command in ms, via hyperfine.
tool_ms() {
    hyperfine --warmup 2 --runs "$RUNS" --export-json "$WORK/h.json" "$1" >/dev/null 2>&1
    $PY -c "import json;print('%.2f'%(json.load(open('$WORK/h.json'))['results'][0]['median']*1000))"
}

# $1 / $2 as "1.23x".
ratio() { $PY -c "print('%.2fx' % ($1 / $2))"; }
