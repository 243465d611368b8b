# golden: list/show/compare/analyze/plan tables and JSON match tests/golden/expected/ (make golden rewrites them).
sh "$REPO/tests/golden/run.sh" || fail "golden outputs differ; see above"
