/* svg.c - escaped HTML text and the few SVG elements the HTML report draws. */
#include "svg.h"

#include <math.h>

void html_esc(struct sb *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': sb_add(b, "&amp;"); break;
		case '<': sb_add(b, "&lt;"); break;
		case '>': sb_add(b, "&gt;"); break;
		case '"': sb_add(b, "&quot;"); break;
		case '\'': sb_add(b, "&#39;"); break;
		default: sb_addf(b, "%c", *s);
		}
	}
}

double svg_map(const struct svg_scale *s, double v)
{
	if (s->d1 == s->d0)
		return (s->r0 + s->r1) / 2;
	return s->r0 + (v - s->d0) / (s->d1 - s->d0) * (s->r1 - s->r0);
}

size_t svg_ticks(double *lo, double *hi, double *out, size_t max)
{
	if (!isfinite(*lo) || !isfinite(*hi) || max < 2)
		return 0;
	if (*hi <= *lo) {
		double m = fabs(*lo) > 0 ? fabs(*lo) * 0.05 : 1;
		*lo -= m;
		*hi += m;
	}
	double raw = (*hi - *lo) / (double)(max - 1);
	double p = pow(10, floor(log10(raw)));
	double step = p;
	if (raw > 5 * p)
		step = 10 * p;
	else if (raw > 2 * p)
		step = 5 * p;
	else if (raw > p)
		step = 2 * p;
	double a = floor(*lo / step) * step, z = ceil(*hi / step) * step;
	size_t n = 0;
	for (double t = a; t <= z + step * 1e-9 && n < max; t += step)
		out[n++] = fabs(t) < step * 1e-9 ? 0 : t;
	*lo = a;
	*hi = out[n - 1] < z - step * 1e-9 ? out[n - 1] : z;
	return n;
}

void svg_open(struct sb *b, int w, int h, const char *id, const char *cls, const char *title)
{
	sb_addf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" id=\"", w,
		h, w, h);
	html_esc(b, id);
	sb_add(b, "\" class=\"");
	html_esc(b, cls);
	sb_add(b, "\" role=\"img\"><title>");
	html_esc(b, title);
	sb_add(b, "</title>\n");
}

void svg_close(struct sb *b)
{
	sb_add(b, "</svg>\n");
}

void svg_line(struct sb *b, double x1, double y1, double x2, double y2, const char *cls)
{
	sb_addf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"%s\"/>\n", x1, y1, x2, y2, cls);
}

void svg_rect(struct sb *b, double x, double y, double w, double h, const char *cls)
{
	sb_addf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"%s\"/>\n", x, y, w > 0 ? w : 0,
		h > 0 ? h : 0, cls);
}

void svg_circle(struct sb *b, double cx, double cy, double r, const char *cls, const char *tip)
{
	sb_addf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" class=\"%s\"", cx, cy, r, cls);
	if (tip) {
		sb_add(b, "><title>");
		html_esc(b, tip);
		sb_add(b, "</title></circle>\n");
	} else {
		sb_add(b, "/>\n");
	}
}

void svg_text(struct sb *b, double x, double y, const char *anchor, const char *cls, const char *text)
{
	sb_addf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">", x, y, anchor, cls);
	html_esc(b, text);
	sb_add(b, "</text>\n");
}
