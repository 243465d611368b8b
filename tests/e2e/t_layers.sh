# layers: the include check passes on the tree, and fails, naming file and line, on a wrong include.
expect 0 sh "$REPO/scripts/check-layers.sh" "$REPO/src"
cp -r "$REPO/src" "$T/src"
# statistics must not read the store; a workload must not reach the reports
echo '#include "store/store.h"' >>"$T/src/stats/dist.c"
echo '#include "../../report/report.h"' >>"$T/src/workloads/kernel/sched_yield.c"
expect 1 sh "$REPO/scripts/check-layers.sh" "$T/src"
n=$(wc -l <"$T/src/stats/dist.c")
contains "$OUT" "stats/dist.c:$n: stats must not include store/store.h"
contains "$OUT" "workloads/kernel/sched_yield.c"
# the analysis layer must not include the CLI or the reports
cp "$REPO/src/stats/dist.c" "$T/src/stats/dist.c"
cp "$REPO/src/workloads/kernel/sched_yield.c" "$T/src/workloads/kernel/sched_yield.c"
echo '#include "report/report.h"' >>"$T/src/analysis/select.c"
expect 1 sh "$REPO/scripts/check-layers.sh" "$T/src"
contains "$OUT" "analysis must not include report/report.h"
# the study floor sits above campaigns and analysis: neither includes it, nor does it include the CLI
cp "$REPO/src/analysis/select.c" "$T/src/analysis/select.c"
echo '#include "study/study.h"' >>"$T/src/campaign/lines.c"
echo '#include "cli/cli.h"' >>"$T/src/study/study.c"
expect 1 sh "$REPO/scripts/check-layers.sh" "$T/src"
contains "$OUT" "campaign must not include study/study.h"
contains "$OUT" "study must not include cli/cli.h"
cp "$REPO/src/campaign/lines.c" "$T/src/campaign/lines.c"
cp "$REPO/src/study/study.c" "$T/src/study/study.c"
echo '#include "report/report.h"' >>"$T/src/analysis/select.c"
# a new folder needs its own rule line
mkdir "$T/src/newmod" && echo '#include "core/core.h"' >"$T/src/newmod/x.c"
expect 1 sh "$REPO/scripts/check-layers.sh" "$T/src"
contains "$OUT" "module newmod has no line in the include rules"
expect 2 sh "$REPO/scripts/check-layers.sh" "$T/nothing"
# headers that include each other in a cycle: the cycle is named
rm -rf "$T/src/newmod"
cp "$REPO/src/analysis/select.c" "$T/src/analysis/select.c"
echo '#include "campaign/backend.h"' >>"$T/src/campaign/campaign.h"
expect 1 sh "$REPO/scripts/check-layers.sh" "$T/src"
contains "$OUT" "include cycle: campaign/"
