/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * optable_dump: --dump-options, the options as shell completion needs
 * them (the line format: opt_dump in optable.h), from the entries --help
 * is written from, so the completion made from it cannot say otherwise.
 */
#include "config.h"

#include <strings.h>

#include "optable.h"
#include "optable_impl.h"

/* Whether word is one of names (NULL-terminated), case aside. */
static int one_of(const char *word, const char *const *names)
{
	for (; *names; names++)
		if (!strcasecmp(word, *names))
			return 1;
	return 0;
}

/* What the value names: one of the words, a directory, a file, a user or
 * a group (by the value's name in help), or "-". */
static const char *value_kind(const struct opt *e)
{
	static const char *const dirs[] = {"dir", NULL};
	static const char *const files[] = {"file", "f", "log", "target", NULL};
	static const char *const users[] = {"user", "user[:group]", NULL};
	static const char *const groups[] = {"group", NULL};

	if (e->words)
		return "words";
	if (e->arg && one_of(e->arg, users))
		return "user";
	if (e->arg && one_of(e->arg, groups))
		return "group";
	if (e->arg && one_of(e->arg, dirs))
		return "dir";
	if (e->type == OPT_PATH || (e->arg && one_of(e->arg, files)))
		return "file";
	return "-";
}

static const char *value_form(const struct opt *e)
{
	if (!opt_has_arg(e))
		return "none";
	if (!(e->flags & OPT_ARG_OPTIONAL))
		return "required";
	return e->flags & OPT_ARG_NEXT ? "next" : "optional";
}

/* Whether p takes operands: a hook for them, or a usage line names them. */
static int takes_operands(const struct opt_parser *p)
{
	if (p->operand)
		return 1;
	for (int k = 0; p->usage && (p->usage[k].tags || p->usage[k].operands);
	     k++)
		if (p->usage[k].operands)
			return 1;
	return 0;
}

void opt_dump(const struct opt_parser *p, FILE *out)
{
	struct opt_walk w = {0};

	while (opt_next_entry(&w, p)) {
		const struct opt *e = w.e;

		if (e->flags & OPT_HIDDEN)
			continue;
		fprintf(out, "option\t");
		if (e->key)
			fprintf(out, "-%c\t", e->key);
		else
			fputs("-\t", out);
		fprintf(out, "%s%s\t%s\t", e->name ? "--" : "-",
			e->name ? e->name : "", value_form(e));
		fprintf(out, "%s\t%u\t", opt_has_arg(e) ? value_kind(e) : "-",
			e->tags);
		if (opt_has_arg(e) && e->words && e->words[0])
			for (int i = 0; e->words[i]; i++)
				fprintf(out, "%s%s", i ? " " : "", e->words[i]);
		else
			fputc('-', out);
		fputc('\n', out);
	}
	for (int k = 0; p->commands && p->commands[k]; k++)
		fprintf(out, "command\t%s\t%u\n", p->commands[k], 1u << k);
	if (takes_operands(p))
		fputs("operands\n", out);
}
