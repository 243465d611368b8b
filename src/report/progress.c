/* progress.c - the one-line progress display of `sysab run` on a terminal. */
#include "report.h"

void report_progress(FILE *f, const struct run_progress *p)
{
	const int width = 20;
	double frac = p->steps ? (double)p->step / p->steps : 0;
	if (frac > 1)
		frac = 1;
	int fill = (int)(frac * width + 0.5);
	char bar[32];
	for (int i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[width] = 0;
	char where[32] = "";
	if (p->round)
		snprintf(where, sizeof where, "round %d/%d", p->round, p->rounds);
	char eta[32] = "";
	if (p->eta_ns)
		snprintf(eta, sizeof eta, "ETA %llus", (unsigned long long)(p->eta_ns / 1000000000u));
	char line[256];
	snprintf(line, sizeof line, "[%s] %s %s %.32s x%d  %llus %s", bar, p->phase, where, p->workload, p->copies,
		 (unsigned long long)(p->elapsed_ns / 1000000000u), eta);
	/* one line shorter than the terminal, so \r can redraw it in place */
	line[REPORT_WIDTH - 1] = 0;
	fprintf(f, "\r\033[K%s", line);
	fflush(f);
}

void report_progress_done(FILE *f)
{
	fprintf(f, "\r\033[K");
	fflush(f);
}
