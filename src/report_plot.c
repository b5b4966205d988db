/* report_plot: being written. */
#include "config.h"
#include "report.h"
int report_plot(const struct report_set *set, const struct report_opts *o,
		FILE *err)
{
	(void)set; (void)o;
	fprintf(err, "clyde-report: plot: not built yet\n");
	return 1;
}
