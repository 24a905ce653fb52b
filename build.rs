//! Generates the C header from the Rust source with cbindgen, into `OUT_DIR`. The committed
//! `include/agentsmd.h` must equal it: the `header_is_generated` test fails when it drifts, and
//! `AGENTSMD_UPDATE=1 cargo test` rewrites it.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

use agentsmd_core::structure::{DEFAULT_CAP, DEFAULT_HEADING, MIN_CAP};
use agentsmd_core::{
    DEFAULT_IMPORT_DEPTH, DEFAULT_MAX_BYTES, DEFAULT_MAX_IMPORTS, DEFAULT_NAME, PART_ID,
};

fn main() {
    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("agentsmd.h");
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable");
    config.after_includes = Some(macros());
    cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write_to_file(&out);
    println!(
        "cargo:rustc-env=AGENTSMD_GENERATED_HEADER={}",
        out.display()
    );
    println!(
        "cargo:rustc-env=AGENTSMD_TARGET={}",
        env::var("TARGET").unwrap()
    );
    println!("cargo:rustc-env=AGENTSMD_SONAME={SONAME}");
    soname();
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=build.rs");
}

/// The version and constant macros, from Cargo.toml and the core's constants.
fn macros() -> String {
    let version = |part: &str| env::var(format!("CARGO_PKG_VERSION_{part}")).unwrap();
    format!(
        r#"
/** The version of this header; agentsmd_version() returns the library's. */
#define AGENTSMD_VERSION "{version}"
#define AGENTSMD_VERSION_MAJOR {major}
#define AGENTSMD_VERSION_MINOR {minor}
#define AGENTSMD_VERSION_PATCH {patch}

/** The identifier of the one instructions part a rendering is. */
#define AGENTSMD_PART_ID "{PART_ID}"

/** The file name looked for when no names are set. */
#define AGENTSMD_DEFAULT_NAME "{DEFAULT_NAME}"

/** The most bytes one file may read when max_bytes is 0 (1 MiB). */
#define AGENTSMD_DEFAULT_MAX_BYTES {DEFAULT_MAX_BYTES}u

/** How deep imports may nest when import_depth is 0. */
#define AGENTSMD_DEFAULT_IMPORT_DEPTH {DEFAULT_IMPORT_DEPTH}u

/** The most import reads of one chain when max_imports is 0. */
#define AGENTSMD_DEFAULT_MAX_IMPORTS {DEFAULT_MAX_IMPORTS}u

/** The cap of a block (agentsmd_document_block) when its options' cap is 0. */
#define AGENTSMD_DEFAULT_CAP {DEFAULT_CAP}u

/** The smallest cap of a block in force: a lower one is raised to it. */
#define AGENTSMD_MIN_CAP {MIN_CAP}u

/** The first line of a block when its options give no heading. */
#define AGENTSMD_DEFAULT_HEADING "{heading}"
"#,
        version = env::var("CARGO_PKG_VERSION").unwrap(),
        major = version("MAJOR"),
        minor = version("MINOR"),
        patch = version("PATCH"),
        heading = c_string_text(DEFAULT_HEADING),
    )
}

/// `text` as it stands between the quotes of a C string literal: it is UTF-8 and needs no escape.
fn c_string_text(text: &[u8]) -> &str {
    let text = std::str::from_utf8(text).expect("UTF-8");
    assert!(
        !text.contains(['"', '\\', '\n']),
        "{text:?} needs escapes in C"
    );
    text
}

/// Leaves `soname` (`libagentsmd.so.1`), a link to `libagentsmd.so`, beside the shared library
/// Cargo is about to link (`target/release`, `target/TRIPLE/release`), as `make` does: a program
/// linked there with `-L target/release -lagentsmd` records the soname and asks the loader for
/// that name, so without the link it would not start (docs/c.md, "Linking"). The profile
/// directory is three above `OUT_DIR` (`PROFILE/build/agentsmd-HASH/out`); where Cargo lays its
/// output out otherwise, nothing is made. musl targets build no shared library.
fn soname_link(soname: &str) {
    if env::var("CARGO_CFG_TARGET_ENV").is_ok_and(|env| env == "musl") {
        return;
    }
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let Some(profile) = out.ancestors().nth(3) else {
        return;
    };
    if out.ancestors().nth(2).and_then(Path::file_name) != Some("build".as_ref()) {
        return;
    }
    let link = profile.join(soname);
    if fs::read_link(&link).is_ok_and(|target| target == Path::new("libagentsmd.so")) {
        return;
    }
    let _ = fs::remove_file(&link);
    #[cfg(unix)]
    let _ = std::os::unix::fs::symlink("libagentsmd.so", &link);
}

/// The shared library's soname on ELF systems. Its number counts the breaks of the C ABI, apart
/// from the package's version (as `libcurl.so.4` does): a program linked with it asks the loader
/// for this name and never gets a library whose ABI broke since. It goes up with every break
/// (docs/versioning.md). The Makefile and the install tests read it here, the tests through
/// `AGENTSMD_SONAME`.
const SONAME: &str = "libagentsmd.so.1";

/// Names the shared library for its loader. On ELF systems that is [`SONAME`]. On Apple systems
/// it is the install name `@rpath/libagentsmd.dylib`, which a program linked with the dylib records and looks for along
/// its own rpaths (`-Wl,-rpath,DIR`); left alone, the linker would record the build directory's
/// absolute path. On Windows (mingw-w64) it is `libagentsmd.dll`, mingw's name for it, which
/// the DLL's export table and its import library `libagentsmd.dll.a` carry (a `.def` file's
/// `LIBRARY`, beside the one rustc writes): Cargo names the file `agentsmd.dll`, and
/// `make` copies it to `libagentsmd.dll` (docs/platforms.md).
fn soname() {
    let family = env::var("CARGO_CFG_TARGET_FAMILY").unwrap_or_default();
    let apple = env::var("CARGO_CFG_TARGET_VENDOR").is_ok_and(|vendor| vendor == "apple");
    let gnu = env::var("CARGO_CFG_TARGET_ENV").is_ok_and(|env| env == "gnu");
    if family == "unix" && apple {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libagentsmd.dylib");
    } else if family == "unix" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{SONAME}");
        soname_link(SONAME);
    } else if family == "windows" && gnu {
        let def = Path::new(&env::var("OUT_DIR").unwrap()).join("libagentsmd.def");
        fs::write(&def, "LIBRARY libagentsmd.dll\n").expect("OUT_DIR is writable");
        println!("cargo:rustc-cdylib-link-arg=-Wl,{}", def.display());
    }
}
