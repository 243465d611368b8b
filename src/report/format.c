/* format.c - numbers and units for people. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Three significant digits, like benchstat. */
static void sig3(char *buf, size_t size, double v)
{
	if (v >= 100)
		snprintf(buf, size, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.2f", v);
}

const char *report_display_unit(const char *unit, int latency, char *buf, size_t size)
{
	if (latency)
		snprintf(buf, size, "ns/%s", "op");
	else
		snprintf(buf, size, "%s/s", unit);
	return buf;
}

void report_value(char *buf, size_t size, double ops, const char *unit, int latency)
{
	char num[32];
	if (!(ops > 0) || !isfinite(ops)) {
		snprintf(buf, size, "-");
		return;
	}
	if (latency) {
		double ns = 1e9 / ops;
		const char *u = "ns";
		if (ns >= 1e9) {
			ns /= 1e9;
			u = "s";
		} else if (ns >= 1e6) {
			ns /= 1e6;
			u = "ms";
		} else if (ns >= 1e4) {
			ns /= 1e3;
			u = "µs";
		}
		sig3(num, sizeof num, ns);
		snprintf(buf, size, "%s %s/op", num, u);
		return;
	}
	static const char *const si[] = {"", "k", "M", "G", "T"};
	int k = 0;
	while (ops >= 1000 && k < 4) {
		ops /= 1000;
		k++;
	}
	sig3(num, sizeof num, ops);
	snprintf(buf, size, "%s%s %s/s", num, si[k], unit);
}
