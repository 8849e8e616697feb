/* msg.c — the only place that writes messages to stderr (curl's
 * tool_msgs.c habit): errors, warnings and notes share one prefix. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Messages quote feeds ("lambda says: …") and specs: through cli_safe, so
 * a provider's error text cannot drive the terminal either. */
static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fputs("planner: ", stderr);
	if (kind)
		fputs(kind, stderr);
	char *text = xvasprintf(fmt, ap);
	if (!text) {
		fputs("(out of memory)\n", stderr);
		return;
	}
	fputs(cli_safe(text, strlen(text) + 1, text), stderr);
	fputc('\n', stderr);
	free(text);
}

void errorf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(NULL, fmt, ap);
	va_end(ap);
}

void warnf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void notef(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("note: ", fmt, ap);
	va_end(ap);
}
