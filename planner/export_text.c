/* export_text.c — the one escaping function of each export format for
 * text that comes from a job spec or a price feed (names, providers,
 * regions, offers, commands): YAML double-quoted scalars and comments
 * (SkyPilot, dstack), shell words and comments (Slurm), RFC 5545 TEXT
 * (ics). CSV has csv_field (cli.c), JSON cJSON, k8s libyaml's emitter.
 *
 * The spec refuses control characters in single-line values and the feeds
 * drop them (text_sanitize), but a store may hold rows written before
 * either: every writer still escapes them, so no text can end a line,
 * start a key or make the file unreadable (issue 26). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

/* U+FFFD, written for a byte that is not UTF-8 where text must be. */
static const char replacement[] = "\xef\xbf\xbd";

/* s into f inside a YAML double-quoted scalar, or (quotes false) a
 * comment, where '"' needs no escape. */
static void yaml_escaped(FILE *f, const char *s, bool quotes)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned cp;
		size_t n = text_utf8_char(p, &cp);
		if (n == 0) {
			fputs(replacement, f);
			p++;
			continue;
		}
		if ((cp == '"' && quotes) || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp < 0x100 && text_is_control(cp))
			fprintf(f, "\\x%02x", cp); /* C0, DEL, C1: YAML's \xNN is the code point */
		else if (text_is_control(cp) || cp == 0xfeff)
			fprintf(f, "\\u%04x", cp); /* line and paragraph separators, a BOM */
		else
			fwrite(p, 1, n, f);
		p += n;
	}
}

void export_yaml_body(FILE *f, const char *s)
{
	yaml_escaped(f, s, true);
}

void export_yaml_str(FILE *f, const char *s)
{
	fputc('"', f);
	export_yaml_body(f, s);
	fputc('"', f);
}

bool export_comment(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *line = xvasprintf(fmt, ap);
	va_end(ap);
	if (!line)
		return false;
	fputs("# ", f);
	yaml_escaped(f, line, false);
	fputc('\n', f);
	free(line);
	return true;
}

/* Bytes of a control character at p, to be written escaped in $'...':
 * 1 for C0 and DEL, 2 for a C1 character (U+0080..U+009F in UTF-8), 0
 * for anything else. */
static size_t shell_control(const unsigned char *p)
{
	if (*p < 0x20 || *p == 0x7f)
		return 1;
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;
}

void export_shell_quote(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool ansi = false;
	for (const unsigned char *q = p; *q && !ansi; q++)
		ansi = shell_control(q) > 0;
	if (!ansi) { /* '...': bash keeps every byte but ' itself */
		fputc('\'', f);
		for (; *p; p++)
			if (*p == '\'')
				fputs("'\\''", f);
			else
				fputc(*p, f);
		fputc('\'', f);
		return;
	}
	/* bash's ANSI-C quoting keeps the word on one line: a line break
	 * inside '...' would end a commented-out line and start a command. */
	fputs("$'", f);
	while (*p) {
		if (*p == '\\' || *p == '\'') {
			fprintf(f, "\\%c", *p++);
			continue;
		}
		if (*p == '\n' || *p == '\t') {
			fputs(*p++ == '\n' ? "\\n" : "\\t", f);
			continue;
		}
		size_t n = shell_control(p);
		if (n == 0)
			fputc(*p++, f);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "\\x%02x", *p++);
	}
	fputc('\'', f);
}

bool export_ics_text(struct buf *b, const char *s)
{
	bool ok = true;
	const unsigned char *p = (const unsigned char *)s;
	while (*p && ok) {
		unsigned cp;
		size_t n = text_utf8_char(p, &cp);
		if (n == 0) {
			ok = buf_append(b, replacement, 3);
			p++;
			continue;
		}
		if (cp == '\\' || cp == ';' || cp == ',')
			ok = buf_printf(b, "\\%c", (int)cp);
		else if (cp == '\n')
			ok = buf_append(b, "\\n", 2);
		else if (cp == '\r')
			; /* a CRLF in the text is one line break */
		else if (text_is_control(cp))
			ok = buf_append(b, replacement, 3); /* TEXT has no control characters */
		else
			ok = buf_append(b, p, n);
		p += n;
	}
	return ok;
}
