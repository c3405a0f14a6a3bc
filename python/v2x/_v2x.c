/* v2x._v2x: the line `v2xcap decode` writes for a record, built as Python objects in C
 * from v2x_decode_record_walk's visits (dicts, lists, str, int, float, bool, None): the
 * objects json.loads would make of the line, without the line's text, for v2x.read. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <string.h>

#include <v2x/v2x.h>

/* The line's objects and arrays nest no deeper than the writer's 64 levels. */
#define MAX_DEPTH 64
/* Strings up to this length are looked up in the cache: keys (J2735 names) and enum
 * names, which the decoder hands over from its tables, the same pointer each time. */
#define CACHED_LEN 32
#define CACHE_BITS 10

/* The str of a pointer's text: one slot per hash of the pointer, its text compared too,
 * since a buffer may hold other text at the same address later. With it, a line's keys
 * and enum names cost no allocation (100 k BSM-heavy messages of bench/python-bench,
 * v2x.read iterated: 2.4 s CPU with the cache, 3.4 s with a new str for each). */
struct slot {
	const char *p;
	Py_ssize_t len;
	PyObject *str; /* Latin-1: one character per octet, as the line's \u00XX escapes */
};

struct cache {
	struct slot slot[1 << CACHE_BITS];
};

/* The cached str of s (a borrowed reference), or NULL with a Python error. Keys are
 * interned: a caller's line["j2735"] then finds its key by pointer. */
static PyObject *cached(struct cache *c, const char *s, Py_ssize_t len, bool key)
{
	struct slot *e = &c->slot[((uintptr_t)s * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - CACHE_BITS)];
	if (e->p == s && e->len == len && memcmp(PyUnicode_1BYTE_DATA(e->str), s, (size_t)len) == 0)
		return e->str;
	PyObject *str = PyUnicode_DecodeLatin1(s, len, NULL);
	if (!str)
		return NULL;
	if (key)
		PyUnicode_InternInPlace(&str);
	Py_XSETREF(e->str, str);
	e->p = s;
	e->len = len;
	return str;
}

struct builder {
	struct cache *cache;
	PyObject *open[MAX_DEPTH]; /* the open containers, outermost first (borrowed) */
	int depth;
	PyObject *key;             /* the key of the member whose value comes next */
	PyObject *root;            /* the line */
	bool failed;               /* a Python error is set: the rest is skipped */
};

/* v (a new reference, NULL on error) into the container open at the top, under the key
 * just given in an object; the root when none is open. False when it failed. */
static bool put(struct builder *b, PyObject *v)
{
	if (!v) {
		b->failed = true;
		return false;
	}
	if (b->depth == 0) {
		Py_XSETREF(b->root, v);
		return true;
	}
	PyObject *top = b->open[b->depth - 1];
	int r = PyList_CheckExact(top) ? PyList_Append(top, v) : PyDict_SetItem(top, b->key, v);
	Py_DECREF(v);
	if (r < 0)
		b->failed = true;
	return r == 0;
}

static void on_key(void *ctx, const char *name)
{
	struct builder *b = ctx;
	if (b->failed)
		return;
	PyObject *k = cached(b->cache, name, (Py_ssize_t)strlen(name), true);
	if (!k) {
		b->failed = true;
		return;
	}
	/* A reference of its own: a value's str may take the key's cache slot. */
	Py_INCREF(k);
	Py_XSETREF(b->key, k);
}

static void on_open(void *ctx, bool array)
{
	struct builder *b = ctx;
	if (b->failed)
		return;
	if (b->depth == MAX_DEPTH) {
		PyErr_SetString(PyExc_RecursionError, "v2x: a line nested too deep");
		b->failed = true;
		return;
	}
	PyObject *o = array ? PyList_New(0) : PyDict_New();
	if (put(b, o))
		b->open[b->depth++] = o; /* held by its parent, or as the root */
}

static void on_close(void *ctx, bool array)
{
	struct builder *b = ctx;
	(void)array;
	if (!b->failed && b->depth > 0)
		b->depth--;
}

static void on_integer(void *ctx, long long v)
{
	struct builder *b = ctx;
	if (!b->failed)
		put(b, PyLong_FromLongLong(v));
}

static void on_uinteger(void *ctx, unsigned long long v)
{
	struct builder *b = ctx;
	if (!b->failed)
		put(b, PyLong_FromUnsignedLongLong(v));
}

static void on_number(void *ctx, double v)
{
	struct builder *b = ctx;
	if (!b->failed)
		put(b, PyFloat_FromDouble(v));
}

static void on_text(void *ctx, const char *s, size_t len)
{
	struct builder *b = ctx;
	if (b->failed)
		return;
	if (len > CACHED_LEN) {
		put(b, PyUnicode_DecodeLatin1(s, (Py_ssize_t)len, NULL));
		return;
	}
	PyObject *str = cached(b->cache, s, (Py_ssize_t)len, false);
	Py_XINCREF(str);
	put(b, str);
}

static void on_boolean(void *ctx, bool v)
{
	struct builder *b = ctx;
	if (!b->failed)
		put(b, PyBool_FromLong(v));
}

static void on_null(void *ctx)
{
	struct builder *b = ctx;
	if (!b->failed) {
		Py_INCREF(Py_None);
		put(b, Py_None);
	}
}

/* octets: never called by the record walk (the line's octets are hex text). */
static const struct v2x_visitor builder_visitor = {
	sizeof(builder_visitor), on_key, on_open, on_close, on_integer, on_text, NULL,
	on_boolean, on_null, on_number, on_uinteger,
};

PyDoc_STRVAR(record_line_doc,
	     "record_line(decoder, file, record, flags) -> dict or None\n\n"
	     "The line v2x_decode_record_json would give for the struct v2x_record at address\n"
	     "record (file: its \"file\", bytes), as the dict json.loads makes of it, built by\n"
	     "v2x_decode_record_walk on the v2x_decoder at address decoder; None when the\n"
	     "record holds no J2735 message. A malformed message gives its line, with its\n"
	     "\"error\", as the text does.");

static PyObject *record_line(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
	if (nargs != 4 || !PyBytes_Check(args[1])) {
		PyErr_SetString(PyExc_TypeError,
				"record_line(decoder: int, file: bytes, record: int, flags: int)");
		return NULL;
	}
	struct v2x_decoder *d = PyLong_AsVoidPtr(args[0]);
	const struct v2x_record *rec = PyLong_AsVoidPtr(args[2]);
	unsigned long flags = PyLong_AsUnsignedLong(args[3]);
	if (PyErr_Occurred())
		return NULL;
	struct builder b = {.cache = PyModule_GetState(module)};
	int r = v2x_decode_record_walk(d, PyBytes_AS_STRING(args[1]), rec, (unsigned)flags,
				       &builder_visitor, &b);
	Py_XDECREF(b.key);
	if (b.failed || (r < 0 && r != V2X_EFORMAT)) {
		Py_XDECREF(b.root);
		if (!b.failed)
			PyErr_Format(PyExc_ValueError, "v2x_decode_record_walk: %s", v2x_strerror(r));
		return NULL;
	}
	if (!b.root)
		Py_RETURN_NONE;
	return b.root;
}

static PyMethodDef methods[] = {
	{"record_line", (PyCFunction)(void (*)(void))record_line, METH_FASTCALL, record_line_doc},
	{NULL, NULL, 0, NULL},
};

static int cache_traverse(PyObject *module, visitproc visit, void *arg)
{
	(void)module, (void)visit, (void)arg; /* only str: nothing the gc follows */
	return 0;
}

static void cache_free(void *module)
{
	struct cache *c = PyModule_GetState(module);
	if (c)
		for (size_t i = 0; i < sizeof(c->slot) / sizeof(c->slot[0]); i++)
			Py_CLEAR(c->slot[i].str);
}

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT,
	.m_name = "v2x._v2x",
	.m_doc = "The lines of libv2x's record walk as Python objects (v2x.read uses it).",
	.m_size = sizeof(struct cache), /* zeroed by Python: every slot empty */
	.m_methods = methods,
	.m_traverse = cache_traverse,
	.m_free = cache_free,
};

PyMODINIT_FUNC PyInit__v2x(void);
PyMODINIT_FUNC PyInit__v2x(void)
{
	return PyModule_Create(&module_def);
}
