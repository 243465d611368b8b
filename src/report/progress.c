/* progress.c - the one-line progress display of `sysab run` on a terminal. */
#include "report.h"

void report_progress(FILE *f, const char *workload, int copies, int slot, int nslots, int sample, int nsamples,
		     uint64_t elapsed_ns, uint64_t eta_ns)
{
	const int width = 20;
	double frac = nslots ? ((double)slot + (nsamples ? (double)sample / nsamples : 0)) / nslots : 0;
	int fill = (int)(frac * width + 0.5);
	char bar[32];
	for (int i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[width] = 0;
	char eta[32] = "";
	if (eta_ns)
		snprintf(eta, sizeof eta, "ETA %llus", (unsigned long long)(eta_ns / 1000000000u));
	fprintf(f, "\r\033[K[%s] %d/%d %.40s x%d sample %d/%d  %llus %s", bar, slot + 1, nslots, workload, copies,
		sample, nsamples, (unsigned long long)(elapsed_ns / 1000000000u), eta);
	fflush(f);
}

void report_progress_done(FILE *f)
{
	fprintf(f, "\r\033[K");
	fflush(f);
}
