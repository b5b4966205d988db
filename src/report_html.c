/* report_html: being written. */
#include "config.h"
#include "report.h"
int report_html(FILE *out, const struct report_set *set,
		const struct report_opts *o, FILE *err)
{
	(void)out; (void)set; (void)o;
	fprintf(err, "clyde-report: html: not built yet\n");
	return 1;
}
