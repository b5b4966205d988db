/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optable_help: --help and the usage lines, written from the entries
 * (see optable.h). An option's line is its spelling in a column of
 * HELP_COL, then its help wrapped at WIDTH with the same indent.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "optable.h"
#include "optable_impl.h"

#define WIDTH	 79
#define HELP_COL 18

void opt_wrap(FILE *out, const char *text, size_t col, size_t indent)
{
	const char *s = text;
	int first = 1;

	while (*s) {
		size_t n;

		if (*s == ' ' || *s == '\n') {
			if (*s == '\n') {
				fprintf(out, "\n%*s", (int)indent, "");
				col = indent;
				first = 1;
			}
			s++;
			continue;
		}
		n = strcspn(s, " \n");
		if (!first && col + 1 + n > WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(s, 1, n, out);
		col += n;
		s += n;
		first = 0;
	}
}

/*
 * An item of a usage line, not broken inside: on this line after a
 * blank if it fits, else on the next, indented to indent.
 */
static void put_item(FILE *out, size_t *col, size_t indent, const char *item)
{
	size_t n = strlen(item);

	if (*col >= indent && *col + 1 + n > WIDTH) {
		fprintf(out, "\n%*s", (int)indent - 1, "");
		*col = indent - 1;
	}
	fputc(' ', out);
	fputs(item, out);
	*col += 1 + n;
}

/* The value's name: .arg, or an enum's words "a|b", or "VALUE". */
static void arg_name(const struct opt *e, char *buf, size_t len)
{
	size_t n = 0;

	if (e->arg || e->type != OPT_ENUM) {
		snprintf(buf, len, "%s", e->arg ? e->arg : "VALUE");
		return;
	}
	buf[0] = '\0';
	for (int i = 0; e->words[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "",
				      e->words[i]);
}

/* How e is spelt: "-k, --name=ARG", "-k ARG", "-k [ARG]", "--name[=ARG]",
 * or for a usage line (usage 1) its shortest form, "-k ARG" or
 * "--name=ARG". */
static void spelling(const struct opt *e, int usage, char *buf, size_t len)
{
	char arg[128] = "";
	int opt = e->flags & OPT_ARG_OPTIONAL;
	size_t n = 0;

	if (opt_has_arg(e))
		arg_name(e, arg, sizeof(arg));
	if (e->key && (usage || !e->name)) {
		/* An optional value that may be the next word (bonnie++'s
		 * "-f 20") is spelt apart: "-f [size]". */
		snprintf(buf, len, "-%c%s%s%s%s", e->key,
			 *arg && (!opt || (e->flags & OPT_ARG_NEXT)) ? " " : "",
			 opt && *arg ? "[" : "", arg, opt && *arg ? "]" : "");
		return;
	}
	if (e->key)
		n = (size_t)snprintf(buf, len, "-%c, ", e->key);
	snprintf(buf + n, len - n, "--%s%s%s%s", e->name,
		 !*arg ? ""
		 : opt ? "[="
		       : "=",
		 arg, opt && *arg ? "]" : "");
}

static int shown(const struct opt *e)
{
	return e->help && !(e->flags & OPT_HIDDEN);
}

void opt_usage(const struct opt_parser *p, FILE *out)
{
	static const struct opt_usage one_form[] = {{0, NULL}, {0, NULL}};
	const struct opt_usage *u = p->usage ? p->usage : one_form;
	size_t indent = strlen("usage: ") + strlen(p->prog) + 1;

	for (int k = 0; k == 0 || u[k].tags || u[k].operands; k++) {
		struct opt_walk w = {0};
		size_t col = indent - 1;

		fprintf(out, "%s %s", k ? "      " : "usage:", p->prog);
		while (opt_next_entry(&w, p)) {
			char sp[160], item[164];

			if (!shown(w.e) || (w.e->flags & OPT_NO_USAGE) ||
			    (u[k].tags && w.e->tags &&
			     !(w.e->tags & u[k].tags)))
				continue;
			spelling(w.e, 1, sp, sizeof(sp));
			snprintf(item, sizeof(item), "[%s]", sp);
			put_item(out, &col, indent, item);
		}
		if (u[k].operands)
			put_item(out, &col, indent, u[k].operands);
		fputc('\n', out);
	}
}

/* One entry's lines: its spelling, then its help from HELP_COL. */
static void entry_help(FILE *out, const struct opt *e)
{
	char sp[192];
	size_t col;

	spelling(e, 0, sp, sizeof(sp));
	fprintf(out, "  %s", sp);
	col = 2 + strlen(sp);
	if (col >= HELP_COL) {
		fputs("  ", out);
		col += 2;
	} else {
		fprintf(out, "%*s", (int)(HELP_COL - col), "");
		col = HELP_COL;
	}
	opt_wrap(out, e->help, col, HELP_COL);
	fputc('\n', out);
}

static void help_text(const struct opt_parser *p, FILE *out)
{
	struct opt_walk w = {0};
	const struct opt_table *last = NULL;

	opt_usage(p, out);
	if (p->write_about) {
		fputc('\n', out);
		p->write_about(out);
	} else if (p->about) {
		fprintf(out, "\n%s", p->about);
	}
	fputc('\n', out);
	while (opt_next_entry(&w, p)) {
		if (!shown(w.e))
			continue;
		/* A table without a heading after one with a heading (as
		 * --help after a test's options) stands apart from it. */
		if (w.t != last && w.t->title)
			fprintf(out, "%s%s\n", last ? "\n" : "", w.t->title);
		else if (w.t != last && last && last->title)
			fputc('\n', out);
		last = w.t;
		entry_help(out, w.e);
	}
	if (p->epilogue)
		fprintf(out, "\n%s", p->epilogue);
}

/*
 * The help is several KiB, more than stdio's buffer for a pipe, so
 * written through stdio it would be two write(2)s and `--help | head -1`
 * could see the second fail after head had gone. It is made in memory
 * and written whole: one write(2) while it fits in a pipe. A write that
 * fails hands the rest to stdio, which fails the same way and keeps the
 * error for the program's check of its output at exit.
 */
void opt_help(const struct opt_parser *p, FILE *out)
{
	char *buf = NULL;
	size_t len = 0, done = 0;
	FILE *mem = open_memstream(&buf, &len);
	int fd = fileno(out);

	if (!mem) {
		help_text(p, out);
		return;
	}
	help_text(p, mem);
	if (fclose(mem) != 0) {
		free(buf);
		help_text(p, out);
		return;
	}
	if (fd >= 0 && fflush(out) == 0)
		while (done < len) {
			ssize_t n = write(fd, buf + done, len - done);

			if (n <= 0)
				break;
			done += (size_t)n;
		}
	if (done < len)
		fwrite(buf + done, 1, len - done, out);
	free(buf);
}
