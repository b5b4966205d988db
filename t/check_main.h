/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_main: the one main() every Check program shares. */
#ifndef CLYDE_T_CHECK_MAIN_H
#define CLYDE_T_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#define CHECK_MAIN(make_suite)                                                 \
	int main(void)                                                         \
	{                                                                      \
		SRunner *sr = srunner_create(make_suite());                    \
		int failed;                                                    \
		srunner_run_all(sr, CK_NORMAL);                                \
		failed = srunner_ntests_failed(sr);                            \
		srunner_free(sr);                                              \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;                   \
	}

#endif
