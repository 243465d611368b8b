/* campaign.h - rendering `sysab campaign new|show|status` as text, markdown or JSON. Never computes. */
#ifndef SYSAB_REPORT_CAMPAIGN_H
#define SYSAB_REPORT_CAMPAIGN_H

#include <stdio.h>
#include "campaign/campaign.h"
#include "study/adaptive.h"

/* The campaign of v: configurations, progress, what is next, time left, and with v->slots
 * the schedule, as text on f. */
void report_campaign_text(FILE *f, const struct campaign_view *v);
/* The same as a JSON object (the caller json_decref()s it; a json_t *). */
void *report_campaign_json(const struct campaign_view *v);
/* The campaign of v as markdown: a heading, its state and progress, and the configurations as a
 * table (the schedule is text's and JSON's). */
void report_campaign_markdown(FILE *f, const struct campaign_view *v);
/* An adaptive campaign's end (decision d, stop not STUDY_GO_ON): why it stopped, each row's
 * verdict at its last look and the MDE md reached (md->have: its lines), as text on f. */
void report_adaptive_text(FILE *f, const char *name, const struct study_decision *d, const struct study_mde *md);

#endif
