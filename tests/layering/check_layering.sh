#!/usr/bin/env bash
# The layering rules of README.md's Layout section, checked on a source tree:
#   engine/ includes no Qt header and nothing from views/ or app/;
#   engine's folders are floors (engine_floors below, bottom first): a file includes only its own folder
#   and the folders below it, and every engine folder has a floor;
#   views/ includes nothing from app/;
#   only app/window/ and the programs' mains (app/main.cpp, app/cli/main.cpp) include app/window/ (the window is the top);
#   app/common/ includes no other app folder; app/scenario/ includes only app/common/;
#   README.md, app/, views/ and engine/ never point outside the repository (../shared, shared/models);
#   only the stage (app/stage/) writes the main heatmap: outside it, an app file holds a writable
#   views::MeshView* only when it (or its .h/.cpp twin) creates that view itself;
#   README.md, engine/, views/, app/ and resources/ cite no source outside the repository (shared/facts,
#   shared/seeds, "facts §", "seed article"): a citation names the source and its key in docs/sources.md;
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
# The engine's floors, bottom first (README.md, Layout). A folder of engine/wafer/ is its own floor; the
# files directly in engine/wafer/ are the floor "wafer".
engine_floors=(core hardware gguf model tokenizer decode wafer/placement wafer/redundancy wafer/dataflow wafer
               wafer/mesh spec calibration predict explore scene session)
declare -A floor_of=()
for i in "${!engine_floors[@]}"; do floor_of[${engine_floors[$i]}]=$i; done
# engine/a/b/c.h -> "a", or "wafer/b" under engine/wafer/ (a file directly in engine/wafer/ -> "wafer").
engine_folder() {
    local rest=${1#engine/}
    local first=${rest%%/*}
    if [ "$first" = wafer ]; then
        rest=${rest#wafer/}
        case $rest in */*) echo "wafer/${rest%%/*}" ;; *) echo wafer ;; esac
    else
        echo "$first"
    fi
}
while IFS= read -r file; do
    from=$(engine_folder "$file")
    if [ -z "${floor_of[$from]+x}" ]; then
        report "engine folder without a floor (add it to engine_floors): $file"
        continue
    fi
    while IFS= read -r line; do
        target=$(sed -nE 's/.*#include\s*"(engine\/[^"]+)".*/\1/p' <<<"$line")
        [ -n "$target" ] || continue
        to=$(engine_folder "$target")
        [ "$to" = "$from" ] && continue
        if [ -z "${floor_of[$to]+x}" ] || [ "${floor_of[$to]}" -gt "${floor_of[$from]}" ]; then
            report "engine/$from includes a floor above it ($to): $file:$line"
        fi
    done < <(grep -nE '#include\s*"engine/' "$file")
done < <(sources engine)
while IFS= read -r hit; do report "views includes app: $hit"; done < <(
    sources views | xargs -r grep -nE '#include\s*"app/' /dev/null)
while IFS= read -r hit; do report "a lower app folder includes app/window: $hit"; done < <(
    sources app | grep -vE '^app/(window/|main\.cpp$|cli/main\.cpp$)' | xargs -r grep -nE '#include\s*"app/window/' /dev/null)
while IFS= read -r hit; do report "app/common includes another app folder: $hit"; done < <(
    sources app/common | xargs -r grep -nE '#include\s*"app/' /dev/null | grep -v '"app/common/')
while IFS= read -r hit; do report "app/scenario includes a folder above it: $hit"; done < <(
    sources app/scenario | xargs -r grep -nE '#include\s*"app/' /dev/null | grep -vE '"app/(common|scenario)/')
# The one stage: a writable MeshView pointer outside app/stage/ must be to a view the file's class made itself.
while IFS= read -r hit; do
    file=${hit%%:*}
    base=${file%.*}
    if ! grep -qsE 'new views::MeshView|views::MeshView [A-Za-z_]+[;({]' "$base.h" "$base.cpp"; then
        report "writes a heatmap it did not make (only app/stage/ writes the main one): $hit"
    fi
done < <(sources app | grep -v '^app/stage/' |
         xargs -r grep -nE 'views::MeshView\s*\*' /dev/null | grep -vE 'const (ws::)?views::MeshView')
while IFS= read -r hit; do report "points outside the repository: $hit"; done < <(
    grep -rnE '\.\./shared|shared/models' README.md app views engine 2>/dev/null)
while IFS= read -r hit; do report "cites a source outside the repository (use docs/sources.md): $hit"; done < <(
    grep -rnIiE 'shared/(facts|seeds)|facts §|seed article' README.md engine views app resources 2>/dev/null)
while IFS= read -r file; do
    lines=$(wc -l < "$file")
    [ "$lines" -le 400 ] || report "$file has $lines lines (at most 400)"
done < <(sources engine views app)

[ "$fail" -eq 0 ] && echo "layering: ok"
exit "$fail"
