/* study.c - the campaign lines of studies (plan --campaign, history --confirm): text and JSON. */
#include "report.h"

#include <jansson.h>

void report_study_line_text(FILE *f, const struct study_line *l)
{
	if (l->line)
		fprintf(f, "\nthe campaign this plan implies (%zu configurations booted as campaign %s booted them; runs as "
			   "printed):\n%s\n",
			l->nconfigs, l->source, l->line);
	else
		fprintf(f, "\nno campaign line: %s\n", l->why ? l->why : "none asked");
}

void report_study_line_json(struct json_t *o, const struct study_line *l)
{
	if (l->line) {
		json_t *a = json_array();
		json_array_append_new(a, json_string("sysab"));
		for (size_t i = 0; i < l->argv.n; i++)
			json_array_append_new(a, json_string(l->argv.v[i]));
		json_object_set_new(o, "campaign", json_string(l->name));
		json_object_set_new(o, "argv", a);
		json_object_set_new(o, "line", json_string(l->line));
	} else {
		json_object_set_new(o, "why", l->why ? json_string(l->why) : json_null());
		json_object_set_new(o, "reason", l->why ? json_string(study_why_word(l->why_kind)) : json_null());
	}
}
