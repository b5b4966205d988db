/*
 * cli: what clyde-zcav and clyde-sweep say when getopt_long (run with
 * opterr = 0 and a leading ':' in the option string) rejects an
 * argument, so both name the bad option the same way.
 */
#ifndef CLYDE_CLI_H
#define CLYDE_CLI_H

/*
 * One line on stderr for getopt_long's ':' (a value missing) or '?'
 * (an unknown option) return c; argv and optind as getopt left them.
 */
void cli_getopt_error(const char *prog, int c, char **argv);

#endif
