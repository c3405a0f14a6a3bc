/* A minimal unit-test harness: TEST(name) registers a case; each case is its own ctest
 * test (tests/CMakeLists.txt finds the TEST lines); checks report file:line and values. */
#ifndef V2X_UNIT_H
#define V2X_UNIT_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void unit_register(const char *name, void (*fn)(void));
void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Marks the running case skipped (exit code 77 when it is the only one run). */
void unit_skip(const char *why);

#define TEST(name)                                                          \
	static void name(void);                                             \
	__attribute__((constructor)) static void unit_reg_##name(void)     \
	{                                                                   \
		unit_register(#name, name);                                 \
	}                                                                   \
	static void name(void)

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond))                                                 \
			unit_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);   \
	} while (0)
#define CHECK_INT(a, b)                                                      \
	do {                                                                 \
		long long va_ = (long long)(a), vb_ = (long long)(b);        \
		if (va_ != vb_)                                              \
			unit_fail(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", \
				  #a, va_, #b, vb_);                         \
	} while (0)
#define CHECK_STR(a, b)                                                      \
	do {                                                                 \
		const char *sa_ = (a), *sb_ = (b);                           \
		if (!sa_ || !sb_ || strcmp(sa_, sb_) != 0)                   \
			unit_fail(__FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", \
				  #a, sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)"); \
	} while (0)
#define CHECK_MEM(a, b, n)                                                   \
	do {                                                                 \
		if (memcmp((a), (b), (n)) != 0)                              \
			unit_fail(__FILE__, __LINE__, "%s differs from %s", #a, #b); \
	} while (0)

/* Test data: files under tests/vectors (or the V2X_VECTORS_DIR env, set by ctest).
 * Each returns a malloc'd buffer the case frees, or skips the case when the file is
 * missing. */
uint8_t *unit_vector_file(const char *relpath, size_t *len);
/* A hex text file (whitespace ignored) as bytes. */
uint8_t *unit_vector_hex(const char *relpath, size_t *len);
/* The hex between <tag> and </tag> of the first occurrence in a text file. */
uint8_t *unit_vector_xml_hex(const char *relpath, const char *tag, size_t *len);
/* Hex string literal to bytes (malloc'd). */
uint8_t *unit_hex(const char *hex, size_t *len);
/* Hands p (malloc'd, may be NULL) to the harness, which frees it when the running case
 * ends: for results a helper returns that point into their own buffer. Returns p. */
void *unit_keep(void *p);

#include <string.h>

#endif
