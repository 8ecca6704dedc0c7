// SPDX-License-Identifier: MIT
//! Finds libbwgemm for the linker.
//!
//! - `BWGEMM_LIB_DIR`: the directory holding libbwgemm.so; pkg-config is not
//!   consulted. The CUDA root is then `CUDA_PATH`, if set.
//! - otherwise `pkg-config --cflags --libs bwgemm`, run as `$PKG_CONFIG`
//!   (default `pkg-config`), which honours `PKG_CONFIG_PATH`. The CUDA root is
//!   `CUDA_PATH` or bwgemm.pc's `cudaroot` variable.
//!
//! `<CUDA root>/lib64` and `<CUDA root>/lib`, those that exist, are added to
//! the link search path, for programs that call the CUDA runtime or cuBLAS
//! themselves, and `<CUDA root>/include` is given to this crate's tests as
//! `BWGEMM_SYS_CUDA_INCLUDE`. Dependents get
//! `DEP_BWGEMM_INCLUDE` (the -I directories) and `DEP_BWGEMM_CUDA_ROOT`.
use std::env;
use std::process::Command;

fn pkg_config(args: &[&str]) -> String {
    let bin = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_owned());
    let out = Command::new(&bin)
        .args(args)
        .arg("bwgemm")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {bin} ({e}): install it or set BWGEMM_LIB_DIR"));
    if !out.status.success() {
        panic!(
            "`{bin} {} bwgemm` failed: {}\nSet PKG_CONFIG_PATH to the directory of bwgemm.pc, \
             or BWGEMM_LIB_DIR to the directory of libbwgemm.so.",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    String::from_utf8(out.stdout)
        .expect("pkg-config printed non-UTF-8")
        .trim()
        .to_owned()
}

fn main() {
    for var in [
        "BWGEMM_LIB_DIR",
        "PKG_CONFIG",
        "PKG_CONFIG_PATH",
        "CUDA_PATH",
    ] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let cuda_path = env::var("CUDA_PATH").ok();
    let cuda_root = if let Ok(dir) = env::var("BWGEMM_LIB_DIR") {
        println!("cargo::rustc-link-search=native={dir}");
        println!("cargo::rustc-link-lib=dylib=bwgemm");
        cuda_path
    } else {
        let flags = pkg_config(&["--cflags", "--libs"]);
        let mut includes = Vec::new();
        for flag in flags.split_whitespace() {
            if let Some(dir) = flag.strip_prefix("-L") {
                println!("cargo::rustc-link-search=native={dir}");
            } else if let Some(lib) = flag.strip_prefix("-l") {
                println!("cargo::rustc-link-lib=dylib={lib}");
            } else if let Some(dir) = flag.strip_prefix("-I") {
                includes.push(dir);
            }
        }
        println!("cargo::metadata=include={}", includes.join(":"));
        Some(cuda_path.unwrap_or_else(|| pkg_config(&["--variable=cudaroot"])))
    };
    if let Some(root) = cuda_root {
        for dir in ["lib64", "lib"].map(|sub| format!("{root}/{sub}")) {
            if std::path::Path::new(&dir).is_dir() {
                println!("cargo::rustc-link-search=native={dir}");
            }
        }
        println!("cargo::rustc-env=BWGEMM_SYS_CUDA_INCLUDE={root}/include");
        println!("cargo::metadata=cuda_root={root}");
    }
}
