/* report_compare: being written. */
#include "config.h"
#include "report.h"
int report_compare(FILE *out, const struct report_set *set,
		   const size_t *inputs, size_t ninputs,
		   const struct report_opts *o, FILE *err)
{
	(void)out; (void)set; (void)inputs; (void)ninputs; (void)o;
	fprintf(err, "clyde-report: compare: not built yet\n");
	return 1;
}
