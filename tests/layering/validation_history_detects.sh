#!/usr/bin/env bash
# check_validation_history.sh on small histories: one that keeps the protocol passes; a freeze commit that also
# touches code, and a later commit that edits a development row together with a predictor, each fail by name;
# no git history is a skip (77).
set -eu
check=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
git init -q repo
cd repo
git config user.email t@t
git config user.name t
commit() { git add -A && git commit -q -m "$1"; }
mkdir -p resources/measurements engine/predict docs
echo '{"kind": "reference", "role": "development", "rows": []}' >resources/measurements/dev.json
echo 'int a;' >engine/predict/p.cpp
commit "model and development rows"
echo '{"kind": "reference", "role": "check", "rows": []}' >resources/measurements/check-x.json
echo 'abc  check-x.json' >resources/measurements/check-manifest.sha256
echo '- [X] source' >docs/sources.md
commit "freeze check-x"
echo 'int b;' >engine/predict/p.cpp
commit "model change alone"
echo '{"kind": "reference", "role": "development", "rows": [1]}' >resources/measurements/dev2.json
commit "data alone"
"$check" . >out.txt || { cat out.txt; echo "a history that keeps the protocol failed"; exit 1; }

echo 'int c;' >engine/predict/p.cpp
echo '{"kind": "reference", "role": "development", "rows": [2]}' >resources/measurements/dev.json
commit "model and rows together"
if "$check" . >out.txt; then cat out.txt; echo "a commit editing rows with a predictor passed"; exit 1; fi
grep -q "model and rows together" out.txt || { cat out.txt; echo "the offending commit is not named"; exit 1; }

cd "$work"
git init -q repo2
cd repo2
git config user.email t@t
git config user.name t
mkdir -p resources/measurements engine/calibration
echo '{"kind": "reference", "role": "check", "rows": []}' >resources/measurements/check-y.json
echo 'int a;' >engine/calibration/c.cpp
git add -A && git commit -q -m "freeze with code"
if "$check" . >out.txt; then cat out.txt; echo "a freeze commit with code passed"; exit 1; fi
grep -q "also touches engine/calibration/c.cpp" out.txt || { cat out.txt; echo "not named"; exit 1; }

mkdir -p "$work/nogit"
set +e
GIT_CEILING_DIRECTORIES="$work" "$check" "$work/nogit" >out.txt
rc=$?
set -e
[ "$rc" -eq 77 ] || { cat out.txt; echo "no history should skip with 77, got $rc"; exit 1; }
grep -q "no git history" out.txt || { cat out.txt; echo "the skip does not say why"; exit 1; }
echo "ok"
