/* gen_embed.c — writes each file named on the command line as a C array
 * to stdout, for planner/embed.c: `gen_embed schema/gpus.json` defines
 * `const char planner_gpus_json[]`, the file's bytes and a NUL (so it is
 * also a C string), as string literals one line of the file each. Plain
 * ISO C builds with any compiler and object format; the assembler's
 * .incbin that embed.c used before is ELF-only (issue 28: macOS). Run by
 * make; exits 5 when a file cannot be read or the output not written. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* planner_ and the file's name with each character that cannot be in an
 * identifier as '_': schema/schema.sql -> planner_schema_sql. */
static void symbol(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t k = (size_t)snprintf(out, len, "planner_");
	for (; *base && k + 1 < len; base++)
		out[k++] = isalnum((unsigned char)*base) ? *base : '_';
	out[k] = '\0';
}

static int embed(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "gen_embed: cannot open %s\n", path);
		return 5;
	}
	char name[256];
	symbol(path, name, sizeof name);
	printf("\n/* %s */\nconst char %s[] =\n\t\"", path, name);
	/* Printable ASCII as itself but for the quote, the backslash and '?'
	 * (trigraphs); any other byte as three octal digits, so a digit after
	 * it cannot join the escape. */
	for (int c; (c = getc(f)) != EOF;) {
		if (c >= 0x20 && c < 0x7f && !strchr("\"\\?", c))
			putchar(c);
		else
			printf("\\%03o", (unsigned)c);
		if (c == '\n')
			fputs("\"\n\t\"", stdout);
	}
	int bad = ferror(f);
	fclose(f);
	printf("\";\n");
	if (bad)
		fprintf(stderr, "gen_embed: cannot read %s\n", path);
	return bad ? 5 : 0;
}

int main(int argc, char **argv)
{
	printf("/* Written by tests/gen_embed.c from the files below; do not edit. */\n");
	for (int i = 1; i < argc; i++)
		if (embed(argv[i]))
			return 5;
	return fflush(stdout) != 0 || ferror(stdout) ? 5 : 0;
}
