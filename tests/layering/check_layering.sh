#!/usr/bin/env bash
# The layering rules of README.md's Layout section, checked on a source tree:
#   engine/ includes no Qt header and nothing from views/ or app/;
#   views/ includes nothing from app/;
#   only app/core/ and the programs' mains (app/main.cpp, app/cli/main.cpp) include app/core/ (the window is the top);
#   app/common/ includes no other app folder; app/scenario/ includes only app/common/;
#   README.md, app/, views/ and engine/ never point outside the repository (../shared, shared/models);
#   no source file in engine/, views/ or app/ is over 400 lines.
# Usage: check_layering.sh SOURCE_DIR. Prints each violation; exits 1 when there is any.
set -uo pipefail
root="${1:?usage: check_layering.sh SOURCE_DIR}"
cd "$root" || exit 2
fail=0
report() { echo "layering: $*"; fail=1; }

sources() { find "$@" -type f \( -name '*.h' -o -name '*.cpp' \) 2>/dev/null | sort; }

while IFS= read -r hit; do report "engine includes Qt or a higher layer: $hit"; done < <(
    sources engine | xargs -r grep -nE '#include\s*[<"](Q[A-Za-z]+|Qt[A-Za-z]*/|views/|app/)' /dev/null)
while IFS= read -r hit; do report "views includes app: $hit"; done < <(
    sources views | xargs -r grep -nE '#include\s*"app/' /dev/null)
while IFS= read -r hit; do report "a lower app folder includes app/core: $hit"; done < <(
    sources app | grep -vE '^app/(core/|main\.cpp$|cli/main\.cpp$)' | xargs -r grep -nE '#include\s*"app/core/' /dev/null)
while IFS= read -r hit; do report "app/common includes another app folder: $hit"; done < <(
    sources app/common | xargs -r grep -nE '#include\s*"app/' /dev/null | grep -v '"app/common/')
while IFS= read -r hit; do report "app/scenario includes a folder above it: $hit"; done < <(
    sources app/scenario | xargs -r grep -nE '#include\s*"app/' /dev/null | grep -vE '"app/(common|scenario)/')
while IFS= read -r hit; do report "points outside the repository: $hit"; done < <(
    grep -rnE '\.\./shared|shared/models' README.md app views engine 2>/dev/null)
while IFS= read -r file; do
    lines=$(wc -l < "$file")
    [ "$lines" -le 400 ] || report "$file has $lines lines (at most 400)"
done < <(sources engine views app)

[ "$fail" -eq 0 ] && echo "layering: ok"
exit "$fail"
