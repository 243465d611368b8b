/* svg.h - writing HTML text and inline SVG elements into a string buffer, escaped. */
#ifndef SYSAB_SVG_H
#define SYSAB_SVG_H

#include <stddef.h>
#include "core/core.h"

/* Append s with &, <, >, " and ' replaced by entities: safe in HTML text, in
 * attribute values and in SVG <text>. NULL appends nothing. */
void html_esc(struct sb *b, const char *s);

/* A linear map from the data range [d0, d1] to the pixel range [r0, r1]. */
struct svg_scale {
	double d0, d1, r0, r1;
};
double svg_map(const struct svg_scale *s, double v);
/* Round "nice" ticks (1, 2, 5 x 10^k) covering [lo, hi]; at most max of them in out.
 * Returns how many. lo and hi are widened to the outer ticks. */
size_t svg_ticks(double *lo, double *hi, double *out, size_t max);

/* <svg> with a viewBox of w x h, an id, a class and an accessible title (all escaped). */
void svg_open(struct sb *b, int w, int h, const char *id, const char *cls, const char *title);
void svg_close(struct sb *b);
void svg_line(struct sb *b, double x1, double y1, double x2, double y2, const char *cls);
void svg_rect(struct sb *b, double x, double y, double w, double h, const char *cls);
/* A circle; tip (may be NULL) becomes its <title>, shown on hover. */
void svg_circle(struct sb *b, double cx, double cy, double r, const char *cls, const char *tip);
/* Text at (x, y); anchor "start", "middle" or "end"; text is escaped. */
void svg_text(struct sb *b, double x, double y, const char *anchor, const char *cls, const char *text);

#endif
