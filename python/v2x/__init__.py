"""libv2x for Python: V2X captures and SAE J2735 messages as Python objects.

A thin module over the installed C library (libv2x.so.0, through ctypes, and the
extension v2x._v2x, which builds read()'s dicts in C): what it returns is what
`v2xcap decode` writes, as dicts.

    import v2x
    for line in v2x.read("bsm.pcap"):          # one dict per J2735 message
        print(line["j2735"]["value"]["coreData"]["speed"])
    counts = v2x.stats("bsm.pcap")             # `v2xcap stats --format json`'s dict
    msg = v2x.decode(bytes.fromhex("0014..."))  # the "j2735" object of one message
    tree = v2x.walk(octets)                     # its "value", built from libv2x's walk
    with v2x.Capture("wlan0") as cap:           # live (CAP_NET_RAW): read()'s dicts
        for line in cap: ...

The library is found as V2X_LIBRARY names it, else as the system's loader finds
libv2x.so.0. Errors: v2x.Error (a file that cannot be read, a message that does not
decode: the message names the cause); a record of a capture that cannot be read is a
v2x.RecordWarning and the rest of the capture is read.
"""
import ctypes
import json
import os
import select
import warnings

__all__ = ["Error", "RecordWarning", "version", "edition", "read", "stats", "decode", "walk",
           "Capture"]

_lib = ctypes.CDLL(os.environ.get("V2X_LIBRARY") or "libv2x.so.0")
# After _lib: the extension's libv2x.so.0 is then the one V2X_LIBRARY named.
from v2x import _v2x  # noqa: E402

# The headers' values and struct layouts, restated (ctypes reads no header): each _NAME is
# V2X_NAME, each structure _Name struct v2x_name, as tests/api/test_layouts.py checks.
_ERRBUF_SIZE = 256
_EAGAIN = -6
_JSON_OCTETS = 1
_LIVE_ALL = 1
_LIVE_NONBLOCK = 2


class Error(Exception):
    """A call of libv2x failed; the message is the library's."""


class RecordWarning(UserWarning):
    """A record of a capture could not be read; the capture goes on after it."""


class _Record(ctypes.Structure):
    _fields_ = [("number", ctypes.c_uint64), ("ts_ns", ctypes.c_int64),
                ("linktype", ctypes.c_int), ("caplen", ctypes.c_uint32),
                ("origlen", ctypes.c_uint32), ("data", ctypes.c_void_p)]


_KEY = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)
_NEST = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_bool)
_INT = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_longlong)
_TEXT = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t)
_OCTETS = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint8), ctypes.c_size_t)
_BOOL = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_bool)
_NULL = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_NUMBER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_double)
_UINT = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_ulonglong)


class _CaptureStats(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("seen", ctypes.c_uint64),
                ("handed_out", ctypes.c_uint64), ("received", ctypes.c_uint64),
                ("dropped_kernel", ctypes.c_uint64), ("dropped_interface", ctypes.c_uint64)]


class _Visitor(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("key", _KEY), ("open", _NEST), ("close", _NEST),
                ("integer", _INT), ("text", _TEXT), ("octets", _OCTETS), ("boolean", _BOOL),
                ("null", _NULL), ("number", _NUMBER), ("uinteger", _UINT)]


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype, f.argtypes = restype, list(argtypes)
    return f


_p = ctypes.c_void_p
_lib_version = _fn("v2x_lib_version", ctypes.c_char_p)
_strerror = _fn("v2x_strerror", ctypes.c_char_p, ctypes.c_int)
_capture_open = _fn("v2x_capture_open", _p, ctypes.c_char_p, ctypes.c_char_p)
_capture_next = _fn("v2x_capture_next", ctypes.c_int, _p, ctypes.POINTER(ctypes.POINTER(_Record)),
                    _p)
_capture_geterr = _fn("v2x_capture_geterr", ctypes.c_char_p, _p)
_capture_close = _fn("v2x_capture_close", None, _p)
_capture_open_live = _fn("v2x_capture_open_live", _p, ctypes.c_char_p, ctypes.c_uint,
                         ctypes.c_char_p)
_capture_fd = _fn("v2x_capture_fd", ctypes.c_int, _p)
_capture_breakloop = _fn("v2x_capture_breakloop", None, _p)
_capture_stats = _fn("v2x_capture_stats", ctypes.c_int, _p, ctypes.POINTER(_CaptureStats))
_decoder_open = _fn("v2x_decoder_open", _p, ctypes.c_char_p)
_decoder_edition = _fn("v2x_decoder_edition", ctypes.c_char_p, _p)
_decode_json = _fn("v2x_decode_json", ctypes.c_int, _p, ctypes.c_char_p, ctypes.c_size_t,
                   ctypes.c_uint, ctypes.POINTER(_p), ctypes.POINTER(ctypes.c_size_t))
_decode_walk = _fn("v2x_decode_walk", ctypes.c_int, _p, ctypes.c_char_p, ctypes.c_size_t,
                   ctypes.POINTER(_Visitor), _p)
_decoder_geterr = _fn("v2x_decoder_geterr", ctypes.c_char_p, _p)
_decoder_close = _fn("v2x_decoder_close", None, _p)
_stats_new = _fn("v2x_stats_new", _p, ctypes.c_char_p)
_stats_add = _fn("v2x_stats_add", ctypes.c_int, _p, ctypes.c_char_p, ctypes.POINTER(_Record), _p)
_stats_json = _fn("v2x_stats_json", ctypes.c_int, _p, ctypes.POINTER(_p),
                  ctypes.POINTER(ctypes.c_size_t))
_stats_geterr = _fn("v2x_stats_geterr", ctypes.c_char_p, _p)
_stats_free = _fn("v2x_stats_free", None, _p)


class _Decoder:
    """A v2x_decoder (for one thread at a time); as a context manager, for a call."""

    def __init__(self):
        err = ctypes.create_string_buffer(_ERRBUF_SIZE)
        self.d = _decoder_open(err)
        if not self.d:
            raise Error(err.value.decode())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        _decoder_close(self.d)

    def error(self):
        return _decoder_geterr(self.d).decode()

    def line(self, name, rec, flags):
        """The line `v2xcap decode` writes for a record (name: its "file") as a dict; None
        when the record holds no J2735 message."""
        return _v2x.record_line(self.d, name, ctypes.addressof(rec.contents), flags)


def version():
    """The C library's name and version, "libv2x 0.1.0"."""
    return _lib_version().decode()


def edition():
    """The J2735 edition the library decodes ("2016", "2020", "2024"), or None when it was
    built without a schema (then messages have their id and name but no "value")."""
    with _Decoder() as d:
        e = _decoder_edition(d.d)
        return e.decode() if e else None


def _text(ptr, length):
    return ctypes.string_at(ptr, length.value).decode()


def read(path, octets=False):
    """The JSON lines `v2xcap decode PATH` writes, as dicts, one per J2735 message: pcap,
    pcapng, deployment logs, RSU text records ("-": stdin). octets: each carries the
    MessageFrame as received, in hex ("j2735"."octets", as --octets). A message that does
    not decode is yielded with its "error"; a record that cannot be read gives a
    RecordWarning. Error when the file cannot be opened."""
    err = ctypes.create_string_buffer(_ERRBUF_SIZE)
    name = os.fsencode(path)
    c = _capture_open(name, err)
    if not c:
        raise Error(err.value.decode())
    try:
        with _Decoder() as d:
            rec = ctypes.POINTER(_Record)()
            while True:
                r = _capture_next(c, ctypes.byref(rec), None)
                if r == 0:
                    break
                if r < 0:
                    warnings.warn(_capture_geterr(c).decode(), RecordWarning, stacklevel=2)
                    continue
                line = d.line(name, rec, _JSON_OCTETS if octets else 0)
                if line:
                    yield line
    finally:
        _capture_close(c)


def stats(path):
    """The statistics `v2xcap stats --format json PATH` prints, as a dict: counts per
    message type, PSID, channel, sender and encapsulation, per BSM sender, and the
    priority messages (the document <v2x/stats.h> describes). A record that cannot be read
    gives a RecordWarning; Error when the file cannot be opened."""
    err = ctypes.create_string_buffer(_ERRBUF_SIZE)
    name = os.fsencode(path)
    c = _capture_open(name, err)
    if not c:
        raise Error(err.value.decode())
    s = _stats_new(err)
    try:
        if not s:
            raise Error(err.value.decode())
        rec, frame = ctypes.POINTER(_Record)(), _p()
        while True:
            r = _capture_next(c, ctypes.byref(rec), ctypes.byref(frame))
            if r == 0:
                break
            if r < 0:
                warnings.warn(_capture_geterr(c).decode(), RecordWarning, stacklevel=2)
            elif _stats_add(s, name, rec, frame) < 0:
                raise Error(_stats_geterr(s).decode())
        out, length = _p(), ctypes.c_size_t()
        if _stats_json(s, ctypes.byref(out), ctypes.byref(length)) < 0:
            raise Error(_stats_geterr(s).decode())
        return json.loads(ctypes.string_at(out, length.value))
    finally:
        _stats_free(s)
        _capture_close(c)


def decode(message, octets=False):
    """The "j2735" object `v2xcap decode` writes for one message (bytes: a UPER
    MessageFrame, or an IEEE 1609.2 message carrying one). Error when it holds no
    MessageFrame or does not decode (the message says why)."""
    message = bytes(message)
    with _Decoder() as d:
        out, length = _p(), ctypes.c_size_t()
        r = _decode_json(d.d, message, len(message), _JSON_OCTETS if octets else 0,
                         ctypes.byref(out), ctypes.byref(length))
        if r < 0:
            raise Error(f"{d.error()} ({_strerror(r).decode()})")
        return json.loads(_text(out.value, length))


def walk(message):
    """The decoded message's "value" as Python objects, built from libv2x's walk (the
    same tree decode() returns under "value"). Error as decode()."""
    message = bytes(message)
    stack, keys = [[]], [None]

    def put(v):
        top = stack[-1]
        if isinstance(top, dict):
            top[keys[-1]] = v
        else:
            top.append(v)

    def on_key(_, name):
        keys[-1] = name.decode()

    def on_open(_, array):
        v = [] if array else {}
        put(v)
        stack.append(v)
        keys.append(None)

    def on_close(_, array):
        stack.pop()
        keys.pop()

    callbacks = _Visitor(
        ctypes.sizeof(_Visitor), _KEY(on_key), _NEST(on_open), _NEST(on_close),
        _INT(lambda _, v: put(v)),
        _TEXT(lambda _, s, n: put(ctypes.string_at(s, n).decode())),
        _OCTETS(lambda _, s, n: put(ctypes.string_at(s, n).hex())),
        _BOOL(lambda _, v: put(bool(v))), _NULL(lambda _: put(None)))
    with _Decoder() as d:
        r = _decode_walk(d.d, message, len(message), ctypes.byref(callbacks), None)
        if r < 0:
            raise Error(f"{d.error()} ({_strerror(r).decode()})")
    return stack[0][0]


class Capture:
    """A live capture on a network interface (an OCB interface or its monitor vif; needs
    CAP_NET_RAW): iterating it yields what read() yields of a file, the line `v2xcap
    decode` writes for each J2735 message ("file": the interface), waiting for frames.
    Only frames carrying WSMP unless all_frames; octets as read(). The iteration ends at
    breakloop(), or raises Error when the interface fails. Error when it cannot open
    (no such interface, no permission: the message says what grants it).

        with v2x.Capture("wlan0") as cap:
            signal.signal(signal.SIGINT, lambda *_: cap.breakloop())
            for line in cap:
                print(line["j2735"]["name"])
            print(cap.stats())
    """

    def __init__(self, ifname, all_frames=False, octets=False):
        self._c = None  # what close() and __del__ see of a capture that did not open
        self._name = os.fsencode(ifname)
        self._flags = _JSON_OCTETS if octets else 0
        self._d = _Decoder()
        err = ctypes.create_string_buffer(_ERRBUF_SIZE)
        # Non-blocking: the wait is select() here, which breakloop() can wake (a blocked
        # v2x_capture_next would wait for the next frame).
        c = _capture_open_live(self._name, _LIVE_NONBLOCK | (_LIVE_ALL if all_frames else 0),
                               err)
        if not c:
            self._d.close()
            raise Error(err.value.decode())
        self._c = c
        # Its own wake-up beside the library's: this loop waits in select() (the capture
        # is non-blocking), where a Python signal handler's breakloop() must reach it;
        # the library's self-pipe wakes only a blocking v2x_capture_next.
        self._wake = os.pipe()

    def _live(self):
        if not self._c:
            raise ValueError("v2x.Capture: closed")
        return self._c

    def __iter__(self):
        c, rec = self._live(), ctypes.POINTER(_Record)()
        while True:
            r = _capture_next(c, ctypes.byref(rec), None)
            if r == _EAGAIN:
                select.select([_capture_fd(c), self._wake[0]], [], [])
            elif r == 0:
                return
            elif r < 0:
                raise Error(_capture_geterr(c).decode())
            else:
                line = self._d.line(self._name, rec, self._flags)
                if line:
                    yield line

    def fileno(self):
        """The interface's descriptor, for select()/poll(): readable when a frame waits."""
        return _capture_fd(self._live())

    def breakloop(self):
        """Ends the iteration (now, or where it waits): from a signal handler or another
        thread, while the capture is open."""
        if self._c:
            _capture_breakloop(self._c)
            os.write(self._wake[1], b"x")

    def stats(self):
        """The counts: "seen" (frames read, before the WSMP filter), "handed_out" (frames
        the iteration got), and libpcap's "received", "dropped_kernel",
        "dropped_interface"."""
        st = _CaptureStats(size=ctypes.sizeof(_CaptureStats))
        if _capture_stats(self._live(), ctypes.byref(st)) < 0:
            raise Error(_capture_geterr(self._c).decode())
        return {f: getattr(st, f) for f, _ in _CaptureStats._fields_[1:]}

    def close(self):
        """Closes the capture; again is fine."""
        if self._c:
            _capture_close(self._c)
            self._c = None
            self._d.close()
            for fd in self._wake:
                os.close(fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    __del__ = close
