// SPDX-License-Identifier: MIT
//! The declarations of src/lib.rs against include/bwgemm/bwgemm.h (and the
//! cuBLAS constants against the CUDA headers): every BWGEMM_API function with
//! the same parameters (names and types, after mapping C types to Rust) and
//! return type, the dispatch-info struct field by field, every enumerator and
//! version macro with its value. A change to the header fails here until the
//! bindings follow.
use std::collections::BTreeMap;
use std::fs;

const HEADER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../include/bwgemm/bwgemm.h"
);
const BINDINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs");

fn read(path: &str) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// C source without comments, continuation lines joined.
fn strip_c(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("*/").expect("unterminated comment");
        rest = &rest[i + end + 2..];
    }
    out.push_str(rest);
    let out: Vec<&str> = out.lines().map(|l| l.split("//").next().unwrap()).collect();
    out.join("\n").replace("\\\n", " ")
}

/// Rust spelling of a C type (a parameter's type with the name removed).
fn rust_type(c: &str) -> String {
    let spaced = c.replace('*', " * ").replace("[]", " [] ");
    let toks: Vec<&str> = spaced.split_whitespace().collect();
    let mut i = 0;
    let mut is_const = false;
    let mut base = Vec::new();
    while i < toks.len() && toks[i] != "*" && toks[i] != "[]" {
        match toks[i] {
            "const" => is_const = true,
            t => base.push(t),
        }
        i += 1;
    }
    let mut ty = match base.join(" ").as_str() {
        "int" => "c_int".to_owned(),
        "int64_t" => "i64".to_owned(),
        "size_t" => "usize".to_owned(),
        "long long int" | "long long" => "c_longlong".to_owned(),
        "char" => "c_char".to_owned(),
        "void" => "c_void".to_owned(),
        name => name.to_owned(),
    };
    for &t in &toks[i..] {
        match t {
            "*" | "[]" => {
                ty = format!("*{} {ty}", if is_const { "const" } else { "mut" });
                is_const = false;
            }
            "const" => is_const = true,
            other => panic!("unexpected token {other:?} in C type {c:?}"),
        }
    }
    ty
}

/// "type name" or "type name[]" -> (name, Rust type).
fn split_decl(decl: &str) -> (String, String) {
    let decl = decl.trim();
    let (decl, array) = match decl.strip_suffix("[]") {
        Some(d) => (d.trim_end(), "[]"),
        None => (decl, ""),
    };
    let at = decl
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap()
        + 1;
    (
        decl[at..].to_owned(),
        rust_type(&format!("{}{array}", &decl[..at])),
    )
}

type Signature = (String, Vec<(String, String)>);

fn header_functions(header: &str) -> BTreeMap<String, Signature> {
    let code: String = strip_c(header)
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let mut funcs = BTreeMap::new();
    for stmt in code.split(';') {
        let Some(at) = stmt.find("BWGEMM_API") else {
            continue;
        };
        let decl = &stmt[at + "BWGEMM_API".len()..];
        let open = decl.find('(').unwrap();
        let (name, ret) = split_decl(&decl[..open]);
        let params = decl[open + 1..decl.rfind(')').unwrap()].trim();
        let params = if params == "void" {
            vec![]
        } else {
            params.split(',').map(split_decl).collect()
        };
        funcs.insert(name, (ret, params));
    }
    funcs
}

fn normalize(ty: &str) -> String {
    ty.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn rust_functions(src: &str) -> BTreeMap<String, Signature> {
    let start = src.find("unsafe extern \"C\" {").expect("no extern block");
    let body: String = src[start..]
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let body = &body[body.find('{').unwrap() + 1..body.rfind('}').unwrap()];
    let mut funcs = BTreeMap::new();
    for stmt in body.split(';').filter(|s| s.contains("fn ")) {
        let decl = &stmt[stmt.find("fn ").unwrap() + 3..];
        let open = decl.find('(').unwrap();
        let close = decl.rfind(')').unwrap();
        let params = decl[open + 1..close]
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                let (name, ty) = p.split_once(':').expect("parameter without type");
                (name.trim().to_owned(), normalize(ty))
            })
            .collect();
        let ret = decl[close + 1..]
            .trim()
            .strip_prefix("->")
            .map_or("()".to_owned(), normalize);
        funcs.insert(decl[..open].trim().to_owned(), (ret, params));
    }
    funcs
}

fn rust_consts(src: &str) -> BTreeMap<String, i64> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("pub const "))
        .map(|l| {
            let (name, rest) = l.split_once(':').unwrap();
            let value = rest.split_once('=').unwrap().1.trim().trim_end_matches(';');
            (name.trim().to_owned(), value.parse().unwrap())
        })
        .collect()
}

/// Value of `NAME = <integer>` (an enumerator) in C text, NAME a whole word.
fn c_enumerator(text: &str, name: &str) -> Option<i64> {
    let mut from = 0;
    while let Some(i) = text[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        let before_ok = text[..at]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let rest = text[from..].trim_start();
        if before_ok && rest.starts_with('=') && !rest.starts_with("==") {
            let value = rest[1..].trim_start();
            let end = value
                .find(|c: char| !(c == '-' || c.is_ascii_digit()))
                .unwrap_or(value.len());
            return value[..end].parse().ok();
        }
    }
    None
}

/// Enumerators and version macros of bwgemm.h, with their values.
fn header_constants(header: &str) -> BTreeMap<String, i64> {
    let code = strip_c(header);
    let mut consts = BTreeMap::new();
    for item in code.split("XX(").skip(1) {
        let mut fields = item.splitn(3, ',');
        let (name, value) = (fields.next().unwrap().trim(), fields.next().unwrap().trim());
        consts.insert(format!("BWGEMM_REASON_{name}"), value.parse().unwrap());
    }
    for prefix in ["BWGEMM_PATH_", "BWGEMM_POLICY_"] {
        for (i, _) in code.match_indices(prefix) {
            let len = code[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap();
            let name = &code[i..i + len];
            if let Some(value) = c_enumerator(&code, name) {
                consts.insert(name.to_owned(), value);
            }
        }
    }
    for line in code.lines() {
        let mut words = line.split_whitespace();
        if let (Some("#define"), Some(name), Some(value)) =
            (words.next(), words.next(), words.next())
        {
            if name.starts_with("BWGEMM_VERSION_") {
                consts.insert(name.to_owned(), value.parse().unwrap());
            }
        }
    }
    let v = |part: &str| consts[&format!("BWGEMM_VERSION_{part}")];
    consts.insert(
        "BWGEMM_VERSION".to_owned(),
        v("MAJOR") * 10000 + v("MINOR") * 100 + v("PATCH"),
    );
    consts
}

#[test]
fn functions_match_header() {
    let c = header_functions(&read(HEADER));
    let rust = rust_functions(&read(BINDINGS));
    assert!(!c.is_empty(), "no BWGEMM_API functions found in {HEADER}");
    let mut problems = Vec::new();
    for (name, sig) in &c {
        match rust.get(name) {
            None => problems.push(format!("{name}: in the header, not declared in src/lib.rs")),
            Some(r) if r != sig => {
                problems.push(format!("{name}:\n  header:   {sig:?}\n  bindings: {r:?}"))
            }
            Some(_) => {}
        }
    }
    for name in rust.keys().filter(|n| !c.contains_key(*n)) {
        problems.push(format!("{name}: declared in src/lib.rs, not in the header"));
    }
    assert!(
        problems.is_empty(),
        "bindings drifted from the header:\n{}",
        problems.join("\n")
    );
    println!("{} functions match", c.len());
}

#[test]
fn dispatch_info_matches_header() {
    let header = strip_c(&read(HEADER));
    let body = header
        .split("typedef struct bwgemmDispatchInfo {")
        .nth(1)
        .expect("struct not found");
    let c: Vec<(String, String)> = body[..body.find('}').unwrap()]
        .split(';')
        .filter(|f| !f.trim().is_empty())
        .map(split_decl)
        .collect();
    let src = read(BINDINGS);
    let body = src
        .split("pub struct bwgemmDispatchInfo_t {")
        .nth(1)
        .expect("struct not declared");
    let rust: Vec<(String, String)> = body[..body.find('}').unwrap()]
        .split(',')
        .filter_map(|f| f.trim().strip_prefix("pub "))
        .map(|f| {
            let (name, ty) = f.split_once(':').unwrap();
            (name.trim().to_owned(), normalize(ty))
        })
        .collect();
    assert_eq!(
        rust, c,
        "bwgemmDispatchInfo_t: bindings (left) differ from the header (right)"
    );
}

#[test]
fn bwgemm_constants_match_header() {
    let c = header_constants(&read(HEADER));
    let rust = rust_consts(&read(BINDINGS));
    let ours: BTreeMap<String, i64> = rust
        .into_iter()
        .filter(|(name, _)| name.starts_with("BWGEMM_"))
        .collect();
    assert_eq!(
        ours, c,
        "bwgemm constants: bindings (left) differ from the header (right)"
    );
    println!("{} bwgemm constants match", c.len());
}

#[test]
fn cuda_constants_match_cuda_headers() {
    let Some(include) = option_env!("BWGEMM_SYS_CUDA_INCLUDE") else {
        panic!("no CUDA root: set CUDA_PATH (or use pkg-config) when building bwgemm-sys")
    };
    let text =
        read(&format!("{include}/cublas_api.h")) + &read(&format!("{include}/library_types.h"));
    let rust = rust_consts(&read(BINDINGS));
    let mut checked = 0;
    for (name, value) in rust
        .iter()
        .filter(|(n, _)| n.starts_with("CUBLAS_") || n.starts_with("CUDA_"))
    {
        assert_eq!(
            c_enumerator(&text, name),
            Some(*value),
            "{name} differs from the CUDA headers in {include}"
        );
        checked += 1;
    }
    assert!(checked > 20, "only {checked} cuBLAS constants found");
    println!("{checked} cuBLAS/CUDA constants match");
}
