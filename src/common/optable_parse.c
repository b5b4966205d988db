/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optable_parse: opt_parse(), the tree's one getopt_long loop (see
 * optable.h). The tables are laid out as getopt's long options and
 * short-option string on the stack for the call: nothing is allocated
 * and nothing is kept, so it can run any number of times in a process.
 */
#include "config.h"

#include <getopt.h>
#include <string.h>

#include "optable.h"
#include "optable_impl.h"
#include "text.h"

/* A long option's code: 256 + the entry's index, above every letter. */
#define LONG_CODE 256

struct layout {
	struct option longs[OPT_MAX_ENTRIES + 1];
	char shorts[3 * OPT_MAX_ENTRIES + 3];
};

int opt_has_arg(const struct opt *e)
{
	return e->type != OPT_FLAG && e->type != OPT_SET &&
	       !(e->flags & OPT_NO_VALUE);
}

/* The getopt_long tables of p; -1 when p has too many entries. */
static int lay_out(const struct opt_parser *p, struct layout *l)
{
	struct opt_walk w = {0};
	size_t nl = 0, ns = 0;

	if (p->operand)
		l->shorts[ns++] = '-'; /* operands in order, as code 1 */
	l->shorts[ns++] = ':';	       /* ':' for a missing value */
	while (opt_next_entry(&w, p)) {
		const struct opt *e = w.e;
		int has = opt_has_arg(e);
		int opt = e->flags & OPT_ARG_OPTIONAL;

		if (w.index > OPT_MAX_ENTRIES)
			return -1;
		if (e->name) {
			l->longs[nl].name = e->name;
			l->longs[nl].has_arg = !has  ? no_argument
					       : opt ? optional_argument
						     : required_argument;
			l->longs[nl].flag = NULL;
			l->longs[nl].val = LONG_CODE + w.index - 1;
			nl++;
		}
		if (e->key) {
			l->shorts[ns++] = (char)e->key;
			if (has)
				l->shorts[ns++] = ':';
			if (has && opt)
				l->shorts[ns++] = ':';
		}
	}
	memset(&l->longs[nl], 0, sizeof(l->longs[nl]));
	l->shorts[ns] = '\0';
	return 0;
}

/* The entry of getopt's code c into w; 0 when there is none. */
static int find(const struct opt_parser *p, int c, struct opt_walk *w)
{
	memset(w, 0, sizeof(*w));
	while (opt_next_entry(w, p))
		if (c >= LONG_CODE ? w->index - 1 == c - LONG_CODE
				   : w->e->key == c)
			return 1;
	return 0;
}

/* getopt's refusal of argv as one line: an unknown option, a missing
 * value, a value given to an option that takes none. */
static void mistake(struct opt_ctx *c, int code)
{
	const char *prog = c->parser->prog;
	const char *given = c->argv[optind - 1];
	char shown[1024], letter[2] = {(char)optopt, '\0'};
	struct opt_walk w;

	if (code == ':') {
		c->arg = given;
		if (c->parser->mistake)
			return c->parser->mistake(c, 1);
		opt_error(c, "%s: needs a value",
			  text_shown(given, shown, sizeof(shown)));
		return;
	}
	if (optopt >= LONG_CODE && find(c->parser, optopt, &w)) {
		opt_error(c, "--%s: takes no value", w.e->name);
		return;
	}
	/* A letter (a byte above 127 is negative: getopt reads a char). */
	if (optopt != 0 && optopt < LONG_CODE) {
		c->arg = NULL;
		given = NULL;
	}
	if (c->parser->mistake) {
		char dash[3] = {'-', (char)optopt, '\0'};

		c->arg = given ? given : dash;
		return c->parser->mistake(c, 0);
	}
	opt_error(c, "unknown option '%s%s' (see %s --help)", given ? "" : "-",
		  text_shown(given ? given : letter, shown, sizeof(shown)),
		  prog);
}

/* One code from getopt: OPT_OK to go on, OPT_DONE, or OPT_BAD. */
static enum opt_result one(struct opt_ctx *c, int code)
{
	const struct opt_parser *p = c->parser;
	const char *arg;
	struct opt_walk w;
	int r;

	if (code == 1) {
		c->opt = NULL;
		c->base = c->parse_base;
		c->arg = optarg;
		return p->operand(c, optarg) ? OPT_BAD : OPT_OK;
	}
	if (code == '?' || code == ':' || !find(p, code, &w)) {
		mistake(c, code);
		return OPT_BAD;
	}
	if (w.t == &opt_builtin) {
		if (!strcmp(w.e->name, "help"))
			opt_help(p, c->out);
		else if (!strcmp(w.e->name, "dump-options"))
			opt_dump(p, c->out);
		else
			fprintf(c->out, "%s %s\n", p->prog, PACKAGE_VERSION);
		return OPT_DONE;
	}
	arg = opt_has_arg(w.e) ? optarg : NULL;
	/* bonnie++'s habit: "-f 20", an optional value as the next word. */
	if (!arg && (w.e->flags & OPT_ARG_NEXT) && optind < c->argc &&
	    c->argv[optind][0] && c->argv[optind][0] != '-')
		arg = c->argv[optind++];
	r = opt_take(c, &w, arg);
	return r < 0 ? OPT_BAD : r > 0 ? OPT_DONE : OPT_OK;
}

enum opt_result opt_parse(const struct opt_parser *p, int argc, char **argv,
			  void *base, FILE *out, FILE *err)
{
	struct opt_ctx c = {.parser = p,
			    .parse_base = base,
			    .argc = argc,
			    .argv = argv,
			    .out = out,
			    .err = err};
	struct layout l;
	enum opt_result r;
	int code;

	if (lay_out(p, &l))
		return opt_error(&c, "too many options declared"), OPT_BAD;
	opterr = 0;
	optind = 0; /* glibc: start afresh, whatever a last call left */
	while ((code = getopt_long(argc, argv, l.shorts, l.longs, NULL)) != -1)
		if ((r = one(&c, code)) != OPT_OK)
			return r;
	c.opt = NULL;
	c.base = base;
	c.arg = NULL;
	c.name[0] = '\0';
	c.next = optind;
	if (p->check && p->check(&c))
		return OPT_BAD;
	return OPT_OK;
}
