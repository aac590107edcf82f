#!/usr/bin/env bash
# The validation protocol in the git history (docs/validation.md). For every frozen check file
# (resources/measurements/*.json with "role": "check"):
#   - its freeze commit (the commit that added it) touches only measurement data, the check manifest and
#     docs/sources.md;
#   - no later commit (built on the freeze, or made after it on a branch merged since) touches both
#     measurement rows of the check or development role and a predictor or a range driver (engine/predict/,
#     engine/calibration/, engine/explore/accuracy*, resources/presets/): rows are never added or edited in
#     the commit that changes what judges them.
# Usage: check_validation_history.sh REPO_ROOT. Exits 0 when the history keeps the protocol, 1 naming each
# commit that breaks it, and 77 (ctest: skipped) with a message when REPO_ROOT has no git history.
set -u
root=${1:-.}
if ! git -C "$root" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    echo "skipped: $root has no git history, so the validation protocol cannot be checked"
    exit 77
fi
if [ "$(git -C "$root" rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
    echo "skipped: $root is a shallow clone; the freeze commits may be missing from its history"
    exit 77
fi

driver_re='^(engine/predict/|engine/calibration/|engine/explore/accuracy|resources/presets/)'
manifest=resources/measurements/check-manifest.sha256

# The role a measurement file has in commit $1 (or its parent, for a file the commit deletes).
role_at() {
    local text
    text=$(git -C "$root" show "$1:$2" 2>/dev/null || git -C "$root" show "$1^:$2" 2>/dev/null)
    printf '%s' "$text" | grep -o '"role"[[:space:]]*:[[:space:]]*"[a-z]*"' | head -1 | sed 's/.*"\([a-z]*\)"$/\1/'
}

failed=0
checked=0
for file in $(git -C "$root" ls-files 'resources/measurements/*.json'); do
    [ "$(role_at HEAD "$file")" = check ] || continue
    freeze=$(git -C "$root" log --format=%H --diff-filter=A -- "$file" | tail -1)
    if [ -z "$freeze" ]; then
        echo "$file: role check, but no commit adds it"
        failed=1
        continue
    fi
    checked=$((checked + 1))
    echo "$file: frozen in $(git -C "$root" log -1 --format='%h %s' "$freeze")"
    while read -r path; do
        case "$path" in
        resources/measurements/*.json | "$manifest" | docs/sources.md) ;;
        *)
            echo "freeze commit $(git -C "$root" log -1 --format=%h "$freeze") of $file also touches $path" \
                "(a freeze commit holds only data, the manifest and docs/sources.md)"
            failed=1
            ;;
        esac
    done < <(git -C "$root" diff-tree --no-commit-id --name-only -r --root "$freeze")
    frozen_at=$(git -C "$root" log -1 --format=%ct "$freeze")
    for commit in $(git -C "$root" rev-list --no-merges "$freeze..HEAD"); do
        # After the freeze: built on it, or made later on a branch merged since. A commit of a parallel branch
        # made before the freeze predates the check set and is not judged by it.
        if ! git -C "$root" merge-base --is-ancestor "$freeze" "$commit" &&
            [ "$(git -C "$root" log -1 --format=%ct "$commit")" -le "$frozen_at" ]; then
            continue
        fi
        paths=$(git -C "$root" diff-tree --no-commit-id --name-only -r "$commit")
        drivers=$(printf '%s\n' "$paths" | grep -E "$driver_re" || true)
        [ -n "$drivers" ] || continue
        rows=""
        for path in $(printf '%s\n' "$paths" | grep -E '^resources/measurements/.*\.json$' || true); do
            case "$(role_at "$commit" "$path")" in
            check | development) rows="$rows $path" ;;
            esac
        done
        if [ -n "$rows" ]; then
            echo "commit $(git -C "$root" log -1 --format='%h %s' "$commit") touches check or development rows" \
                "($(echo $rows)) and a predictor or range driver ($(echo $drivers | cut -c1-200))"
            failed=1
        fi
    done
done
if [ "$checked" -eq 0 ]; then
    echo "no frozen check file yet: nothing to check"
fi
exit $failed
