#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks bindings/fortran/bwgemm.f90 against include/bwgemm/bwgemm.h.

- every BWGEMM_API function has a bind(C) interface of the same name, with the
  same arguments in the same order (names compared case-insensitively), each
  of the interoperable kind and passing convention its C type needs, and the
  right result type; and no interface binds a function the header lacks;
- bwgemmDispatchInfo_t has the C struct's fields, in order, with matching kinds;
- every bwgemm enumerator and version macro of the header has a parameter;
- every integer parameter of the module equals the C constant of the same
  name: checked by the C compiler, with _Static_assert, against the real
  bwgemm and CUDA headers.

usage: check_interfaces.py HEADER MODULE CC [CFLAGS...]
"""
import os
import re
import subprocess
import sys
import tempfile

# C type -> (Fortran type, passed by value). Pointers are handled below.
C_SCALARS = {
    "int": "integer(c_int)",
    "int64_t": "integer(c_int64_t)",
    "long long int": "integer(c_long_long)",
    "size_t": "integer(c_size_t)",
    "cublasHandle_t": "type(c_ptr)",
    "cublasStatus_t": "integer(c_int)",
    "cublasOperation_t": "integer(c_int)",
    "cudaDataType": "integer(c_int)",
    "cublasComputeType_t": "integer(c_int)",
    "cublasGemmAlgo_t": "integer(c_int)",
    "bwgemmReason_t": "integer(c_int)",
    "bwgemmPath_t": "integer(c_int)",
    "bwgemmPolicy_t": "integer(c_int)",
}
# Pointers to these are passed by reference to a derived type.
C_STRUCTS = {"bwgemmDispatchInfo_t": "type(bwgemmdispatchinfo_t)"}

errors = []


def error(msg):
    errors.append(msg)
    print("FAIL " + msg)


def strip_c(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"\\\n", " ", text)
    return text


def fortran_type(ctype):
    """(Fortran type, by value) for a C parameter or result type."""
    ctype = " ".join(ctype.replace("*", " * ").replace("[]", " * ").split())
    if "*" in ctype:
        base = ctype.replace("const", "").replace("*", "").strip()
        if base in C_STRUCTS and ctype.count("*") == 1:
            return C_STRUCTS[base], False
        return "type(c_ptr)", True
    ctype = ctype.replace("const ", "")
    if ctype not in C_SCALARS:
        error(f"no Fortran mapping for C type '{ctype}' (extend check_interfaces.py)")
        return "?", True
    return C_SCALARS[ctype], True


def header_functions(text):
    code = "\n".join(l for l in strip_c(text).split("\n") if not l.lstrip().startswith("#"))
    funcs = {}
    for m in re.finditer(r"\bBWGEMM_API\b([^;(]*?)\b(\w+)\s*\(([^)]*)\)\s*;", code):
        ret, name, params = m.group(1).strip(), m.group(2), m.group(3).strip()
        args = []
        if params != "void":
            for p in params.split(","):
                pm = re.match(r"(.*?)\b(\w+)\s*(\[\])?\s*$", p.strip())
                args.append((pm.group(2).lower(), fortran_type(pm.group(1) + (pm.group(3) or ""))))
        funcs[name] = (fortran_type(ret)[0], args)
    return funcs


def header_struct(text, name):
    m = re.search(r"typedef struct \w+ \{(.*?)\}\s*" + name + r"\s*;", strip_c(text), re.S)
    fields = []
    for decl in m.group(1).split(";")[:-1]:
        fm = re.match(r"(.*?)\b(\w+)\s*$", decl.strip())
        fields.append((fm.group(2).lower(), fortran_type(fm.group(1))[0]))
    return fields


def header_constants(text):
    code = strip_c(text)
    names = {"BWGEMM_REASON_" + n for n in re.findall(r"XX\((\w+),\s*\d+", code)}
    names |= set(re.findall(r"\b(BWGEMM_(?:PATH|POLICY)_\w+)\s*=", code))
    names |= set(re.findall(r"#define\s+(BWGEMM_VERSION\w*)", code))
    return names


def fortran_statements(text):
    """Free-form source as statements: comments dropped, continuations joined."""
    lines = [re.sub(r"!.*", "", l).rstrip() for l in text.split("\n")]
    stmts, cur = [], ""
    for l in lines:
        l = l.strip()
        if l.startswith("&"):
            l = l[1:].lstrip()
        if l.endswith("&"):
            cur += l[:-1] + " "
            continue
        cur += l
        if cur.strip():
            stmts.append(" ".join(cur.split()))
        cur = ""
    return stmts


DECL = re.compile(r"^((?:integer|type)\(\w+\))\s*((?:,\s*[\w()]+\s*)*)::\s*(.*)$", re.I)


def module_interfaces(stmts):
    funcs, cur = {}, None
    for s in stmts:
        m = re.match(r"^(.*?)\s*\bfunction\s+(\w+)\s*\(([^)]*)\)\s*bind\s*\(\s*C\s*,\s*name\s*=\s*'(\w+)'\s*\)$",
                     s, re.I)
        if m:
            cur = {"ret": m.group(1).lower(), "name": m.group(2), "cname": m.group(4),
                   "args": [a.strip().lower() for a in m.group(3).split(",") if a.strip()],
                   "decl": {}}
            funcs[cur["cname"]] = cur
        elif cur and re.match(r"^end function\b", s, re.I):
            cur = None
        elif cur:
            d = DECL.match(s)
            if d:
                attrs = d.group(2).lower().replace(" ", "")
                for n in d.group(3).split(","):
                    cur["decl"][n.strip().lower()] = (d.group(1).lower(), ",value" in attrs)
    return funcs


def module_type(stmts, name):
    fields, inside = [], False
    for s in stmts:
        if re.match(r"^type\s*,\s*bind\s*\(\s*c\s*\)\s*::\s*" + name + "$", s, re.I):
            inside = True
        elif inside and re.match(r"^end type", s, re.I):
            return fields
        elif inside:
            d = DECL.match(s)
            for n in d.group(3).split(","):
                fields.append((n.strip().lower(), d.group(1).lower()))
    error(f"module has no bind(c) type {name}")
    return fields


def module_parameters(stmts):
    params = {}
    for s in stmts:
        m = re.match(r"^integer\(c_int\)\s*,\s*parameter\s*::\s*(\w+)\s*=\s*(.+)$", s, re.I)
        if m:
            params[m.group(1)] = m.group(2)
    return params


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    header, module, cc, cflags = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    htext = open(header).read()
    stmts = fortran_statements(open(module).read())

    cfuncs = header_functions(htext)
    ffuncs = module_interfaces(stmts)
    print(f"check: {len(cfuncs)} functions in {header}, {len(ffuncs)} interfaces in {module}")
    for name in sorted(set(cfuncs) - set(ffuncs)):
        error(f"{name}: declared in the header, no interface in the module")
    for name in sorted(set(ffuncs) - set(cfuncs)):
        error(f"{name}: interface in the module, not in the header")
    for name in sorted(set(cfuncs) & set(ffuncs)):
        ret, cargs = cfuncs[name]
        f = ffuncs[name]
        if f["name"].lower() != name.lower():
            error(f"{name}: Fortran name {f['name']}")
        if f["ret"] != ret:
            error(f"{name}: returns {f['ret']}, the header needs {ret}")
        if [a for a, _ in cargs] != f["args"]:
            error(f"{name}: arguments {f['args']}, the header has {[a for a, _ in cargs]}")
            continue
        for arg, want in cargs:
            got = f["decl"].get(arg)
            if got != want:
                error(f"{name}({arg}): declared {got}, the header needs {want} "
                      "(type, passed by value)")

    cfields = header_struct(htext, "bwgemmDispatchInfo_t")
    ffields = module_type(stmts, "bwgemmDispatchInfo_t")
    print(f"check: bwgemmDispatchInfo_t has {len(cfields)} fields in C, {len(ffields)} in Fortran")
    if cfields != ffields:
        error(f"bwgemmDispatchInfo_t: Fortran {ffields}, C {cfields}")

    params = module_parameters(stmts)
    for name in sorted(header_constants(htext) - set(params)):
        error(f"{name}: in the header, no parameter in the module")

    # The compiler evaluates each parameter's expression in C, where the
    # Fortran names are the header's macros and enumerators.
    asserts = "".join(f'_Static_assert(({expr}) == ({name}), "{name} differs from C");\n'
                      for name, expr in sorted(params.items()))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "fortran_constants.c")
        with open(src, "w") as out:
            out.write("#include <bwgemm/bwgemm.h>\n" + asserts)
        print(f"check: {len(params)} parameters against the C headers ({cc} -fsyntax-only)")
        r = subprocess.run([cc, "-std=c11", "-fsyntax-only", *cflags, src],
                           capture_output=True, text=True)
        if r.returncode != 0:
            error("constants differ from the C headers:\n" + r.stdout + r.stderr)

    if errors:
        print(f"check_interfaces: {len(errors)} problem(s)")
        sys.exit(1)
    print("check_interfaces: the module matches the header")


if __name__ == "__main__":
    main()
