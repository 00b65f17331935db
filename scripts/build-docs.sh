#!/usr/bin/env bash
# Builds PhotoDeck's documentation with DocC into .build/docs/PhotoDeck.doccarchive:
# every library module in one archive (so links between modules resolve),
# each with the landing page from Sources/<Module>/Documentation.docc.
# Fails on any DocC warning: a link that does not resolve, in a landing page
# or in a doc comment.
#
#   scripts/build-docs.sh            build, warnings are errors
#   scripts/build-docs.sh --preview  then serve it at http://localhost:8080
set -euo pipefail
cd "$(dirname "$0")/.."
# The library products' modules, read from the manifest (one list for every script).
mapfile -t MODULES < <(python3 scripts/module-map.py --libraries)
DOCC=$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")
WORK=.build/docs
rm -rf "$WORK"
mkdir -p "$WORK/graphs" "$WORK/PhotoDeck.docc"

# dump-symbol-graph also reads the package's test-discovery module, which
# exists only once the tests are built: build them first, so `make docs`
# works on its own in a fresh clone (a no-op after `make test`).
swift build --build-tests >/dev/null
swift package dump-symbol-graph --minimum-access-level public >/dev/null
GRAPHS=$(ls -d .build/*/symbolgraph | head -n 1)
for module in "${MODULES[@]}"; do
    cp "$GRAPHS/$module.symbols.json" "$WORK/graphs/"
    cp "$GRAPHS/$module"@*.symbols.json "$WORK/graphs/" 2>/dev/null || true
    catalog=Sources/$module/Documentation.docc
    [ -d "$catalog" ] || { echo "error: $catalog is missing (every library module has a landing page)" >&2; exit 1; }
    cp -R "$catalog/." "$WORK/PhotoDeck.docc/"
done
cp Documentation/PhotoDeck.md Documentation/Articles/*.md "$WORK/PhotoDeck.docc/"

action=convert
[ "${1:-}" = --preview ] && action=preview
"$DOCC" "$action" "$WORK/PhotoDeck.docc" --additional-symbol-graph-dir "$WORK/graphs" \
    --fallback-display-name PhotoDeck --fallback-bundle-identifier org.photodeck.PhotoDeck \
    --output-path "$WORK/PhotoDeck.doccarchive" --warnings-as-errors
[ "$action" = convert ] && echo "documentation: $WORK/PhotoDeck.doccarchive (${#MODULES[@]} modules)"
