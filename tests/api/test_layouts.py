"""What python/v2x restates of the C headers (ctypes reads none) is what they say: each
private all-capitals int _NAME of the module is V2X_NAME, each ctypes.Structure
_CamelName is struct v2x_camel_name, member for member (name, offset, size) and in size,
as api_layouts (compiled against lib/include) prints them.
  V2X_LIBRARY=libv2x.so PYTHONPATH=python V2X_API_LAYOUTS=api_layouts pytest.sh test_layouts.py"""
import ctypes
import os
import re
import subprocess

import pytest

import v2x

CONSTANTS = {n: v for n, v in vars(v2x).items()
             if re.fullmatch(r"_[A-Z][A-Z0-9_]*", n) and isinstance(v, int)}
STRUCTS = {n: v for n, v in vars(v2x).items()
           if isinstance(v, type) and issubclass(v, ctypes.Structure)}


@pytest.fixture(scope="module")
def headers():
    """api_layouts' lines as {"V2X_NAME": value, "struct NAME": size,
    "NAME": [(member, offset, size), ...]}."""
    out = subprocess.run([os.environ["V2X_API_LAYOUTS"]], check=True, capture_output=True,
                         text=True).stdout
    facts = {}
    for line in out.splitlines():
        words = line.split()
        if words[0] == "struct":
            facts["struct " + words[1]] = int(words[2])
        elif len(words) == 3:
            struct, member = words[0].split(".")
            facts.setdefault(struct, []).append((member, int(words[1]), int(words[2])))
        else:
            facts[words[0]] = int(words[1])
    return facts


def test_the_module_restates_constants_and_structs():
    assert "_ERRBUF_SIZE" in CONSTANTS and "_Record" in STRUCTS


@pytest.mark.parametrize("name", CONSTANTS)
def test_constant_is_the_headers(name, headers):
    c = "V2X" + name
    assert c in headers, f"api_layouts.c prints no {c}"
    assert CONSTANTS[name] == headers[c]


@pytest.mark.parametrize("name", STRUCTS)
def test_struct_is_the_headers(name, headers):
    c = "v2x" + re.sub(r"[A-Z]", lambda m: "_" + m[0].lower(), name[1:])
    assert f"struct {c}" in headers, f"api_layouts.c prints no struct {c}"
    py = STRUCTS[name]
    assert [(f, getattr(py, f).offset, getattr(py, f).size) for f, *_ in py._fields_] == headers[c]
    assert ctypes.sizeof(py) == headers[f"struct {c}"]
