/* msg.c — the only place that writes messages to stderr (curl's
 * tool_msgs.c habit): errors, warnings and notes share one prefix. */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fputs("planner: ", stderr);
	if (kind)
		fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
