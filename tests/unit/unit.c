/* The unit-test runner: runs one named case (as ctest does) or all of them. */
#include "unit.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"

#define MAX_CASES 512
#define EXIT_SKIP 77

static struct {
	const char *name;
	void (*fn)(void);
} cases[MAX_CASES];
static size_t n_cases;
static int failures;
static bool skipped;

/* What the running case keeps until it ends (unit_keep). */
struct kept {
	struct kept *next;
	void *p;
};
static struct kept *kept;

void *unit_keep(void *p)
{
	struct kept *k = malloc(sizeof(*k));
	if (!k) {
		fprintf(stderr, "unit: out of memory\n");
		exit(2);
	}
	*k = (struct kept){kept, p};
	kept = k;
	return p;
}

static void free_kept(void)
{
	while (kept) {
		struct kept *k = kept;
		kept = k->next;
		free(k->p);
		free(k);
	}
}

void unit_register(const char *name, void (*fn)(void))
{
	if (n_cases == MAX_CASES) {
		fprintf(stderr, "unit: too many cases\n");
		exit(2);
	}
	cases[n_cases].name = name;
	cases[n_cases].fn = fn;
	n_cases++;
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	failures++;
}

void unit_skip(const char *why)
{
	printf("SKIP: %s\n", why);
	skipped = true;
}

static char *read_all(const char *relpath, size_t *len)
{
	const char *dir = getenv("V2X_VECTORS_DIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : V2X_VECTORS_DIR, relpath);
	FILE *f = fopen(path, "rb");
	if (!f) {
		char why[4200];
		snprintf(why, sizeof(why), "vector %s not found", path);
		unit_skip(why);
		return NULL;
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "unit: out of memory\n");
		exit(2);
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

uint8_t *unit_vector_file(const char *relpath, size_t *len)
{
	return (uint8_t *)read_all(relpath, len);
}

static uint8_t *hex_n(const char *hex, size_t hexlen, size_t *len)
{
	uint8_t *out = malloc(hexlen / 2 + 1);
	size_t at;
	long n = out ? v2x_hex_decode(hex, hexlen, out, hexlen / 2 + 1, &at) : -1;
	*len = n < 0 ? 0 : (size_t)n;
	return out;
}

uint8_t *unit_hex(const char *hex, size_t *len)
{
	return hex_n(hex, strlen(hex), len);
}

uint8_t *unit_vector_hex(const char *relpath, size_t *len)
{
	size_t n;
	char *txt = read_all(relpath, &n);
	if (!txt)
		return NULL;
	uint8_t *out = hex_n(txt, n, len);
	free(txt);
	return out;
}

uint8_t *unit_vector_xml_hex(const char *relpath, const char *tag, size_t *len)
{
	size_t n;
	char *txt = read_all(relpath, &n);
	if (!txt)
		return NULL;
	char open[128], close[128];
	snprintf(open, sizeof(open), "<%s>", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	char *a = strstr(txt, open), *b = a ? strstr(a, close) : NULL;
	uint8_t *out = NULL;
	if (a && b) {
		a += strlen(open);
		out = hex_n(a, (size_t)(b - a), len);
	} else {
		unit_skip("tag not found in vector");
	}
	free(txt);
	return out;
}

int main(int argc, char **argv)
{
	int ran = 0;
	for (size_t i = 0; i < n_cases; i++) {
		if (argc > 1 && strcmp(argv[1], cases[i].name) != 0)
			continue;
		int before = failures;
		skipped = false;
		cases[i].fn();
		free_kept();
		ran++;
		printf("%s %s\n", failures > before ? "FAIL" : skipped ? "SKIP" : "ok",
		       cases[i].name);
	}
	if (ran == 0) {
		fprintf(stderr, "unit: no case named %s\n", argc > 1 ? argv[1] : "(any)");
		return 2;
	}
	if (failures)
		return 1;
	return (argc > 1 && skipped) ? EXIT_SKIP : 0;
}
