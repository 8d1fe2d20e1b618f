#!/usr/bin/env bash
# `npm test`: every check, in the order that fits a machine of few cores.
#
# 1. The unit and API tests (Vitest), with the type checks, the lint and the build the end-to-end tests serve beside
#    them at a lower priority: the tests leave about a sixth of 2 cores idle (files waiting on a browser, a schedule's
#    tick, a crawl), which those fill. Their output is kept apart and shown when each ends.
# 2. The chaos tests, alone: each loads the machine on purpose and measures the server.
# 3. The end-to-end tests, alone: they time a real browser against the real server built in step 1.
#
# Any failure stops the rest and makes the exit code non-zero, as `a && b && c` did.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
side=(typecheck lint build)

for name in "${side[@]}"; do
  (
    started=$SECONDS
    nice -n 10 npm run --silent "$name" >"$logs/$name.log" 2>&1
    echo $? >"$logs/$name.rc"
    echo "$((SECONDS - started))" >"$logs/$name.seconds"
  ) &
done

npm run --silent test:unit 2>&1 | tee "$logs/unit.log"
unit=${PIPESTATUS[0]}
wait

failed=()
for name in "${side[@]}"; do
  printf '\n== npm run %s (beside the unit tests, %s s)\n' "$name" "$(cat "$logs/$name.seconds" 2>/dev/null || echo '?')"
  cat "$logs/$name.log"
  [ "$(cat "$logs/$name.rc" 2>/dev/null || echo 1)" = 0 ] || failed+=("$name")
done
if [ "$unit" != 0 ]; then
  failed+=(test:unit)
  # CI keeps the tail of the output: say again which unit tests failed, after the side steps' long logs.
  printf '\n== the unit tests that failed (again, from above)\n' >&2
  # Vitest colours its lines: strip the escape codes first, or the pattern never matches and only the totals show.
  sed 's/\x1b\[[0-9;]*m//g' "$logs/unit.log" |
    grep -E '^ *(FAIL|×|❯ .*\([0-9]+ tests? \| [0-9]+ failed)|Test Files|Tests  )' | tail -n 60 >&2
fi
if [ ${#failed[@]} -gt 0 ]; then
  printf '\nnpm test: failed: %s\n' "${failed[*]}" >&2
  exit 1
fi

npm run --silent test:chaos || exit 1
# The build is step 1's: `npm run test:e2e` alone builds first.
npx playwright test -c e2e/playwright.config.ts
