//! macOS, built and linked here and never run here (docs/platforms.md). For
//! aarch64-apple-darwin and x86_64-apple-darwin, `cargo build --release` links the C library and
//! the CLI through `tools/apple-linker` (.cargo/config.toml), and these tests read what came out
//! (tests/macho): the dylib exports the functions of `include/agentsmd.h` and nothing else, as
//! tests/hardening/boundary.rs holds the Linux library to, and is named
//! `@rpath/libagentsmd.dylib`; the dylib and the CLI are Mach-O for the target's CPU, load
//! libSystem alone, and carry a code signature that holds on Apple silicon; a C program that
//! takes the address of every declared function links with `libagentsmd.a`; `make install` for
//! macOS puts the dylib and a pkg-config file with its rpath in place, through which a program
//! importing the Swift module map links the dylib; and the Go package cross-builds with the
//! archive for darwin/arm64 and darwin/amd64 through `zig cc` (`tools/go-darwin`).
//!
//! They need the two Rust targets (`rustup target add aarch64-apple-darwin x86_64-apple-darwin`),
//! rust-lld (rustup ships it), Zig 0.14.1 from PyPI (the macOS SDK stand-in and the C compiler)
//! and Go. Where one is missing, each test says which on stderr and passes; where `CI` is set,
//! as when CI runs `.ci/run`, which installs them all, a missing one fails the test instead.

mod cbuild;
mod macho;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use cbuild::{declared_functions, repo, succeeded as run, text, STRICT_C, ZIG};
use macho::{MachO, CPU_ARM64, CPU_X86_64, MH_DYLIB, MH_EXECUTE, PLATFORM_MACOS};

/// An Apple target, as Rust, Zig and Go name it, its Mach-O CPU type, and the oldest macOS that
/// Rust builds for on it (rustc's default, which a C program linked with the archive matches).
struct Apple {
    rust: &'static str,
    zig: &'static str,
    goarch: &'static str,
    cpu: u32,
    arch: &'static str,
    minimum: &'static str,
}

const TARGETS: [Apple; 2] = [
    Apple {
        rust: "aarch64-apple-darwin",
        zig: "aarch64-macos",
        goarch: "arm64",
        cpu: CPU_ARM64,
        arch: "arm64",
        minimum: "11.0",
    },
    Apple {
        rust: "x86_64-apple-darwin",
        zig: "x86_64-macos",
        goarch: "amd64",
        cpu: CPU_X86_64,
        arch: "x86_64",
        minimum: "10.12",
    },
];

const INSTALL_NAME: &str = "@rpath/libagentsmd.dylib";
const LIBSYSTEM: &str = "/usr/lib/libSystem.B.dylib";

fn linker() -> PathBuf {
    repo().join("tools/apple-linker")
}

/// The rustc of the toolchain running this test: beside the `cargo` that runs it.
fn rustc() -> Command {
    let beside = std::env::var_os("CARGO")
        .map(|cargo| Path::new(&cargo).with_file_name("rustc"))
        .filter(|rustc| rustc.is_file());
    Command::new(beside.unwrap_or_else(|| "rustc".into()))
}

fn rustc_prints(args: &[&str]) -> Option<PathBuf> {
    let out = rustc().arg("--print").args(args).output().ok()?;
    out.status
        .success()
        .then(|| PathBuf::from(text(&out.stdout).trim()))
}

/// `python3 -m ziglang`, with its caches in the target directory.
fn zig() -> Command {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("zig-cache");
    let mut command = Command::new("python3");
    command
        .args(["-m", "ziglang"])
        .env("ZIG_GLOBAL_CACHE_DIR", &cache)
        .env("ZIG_LOCAL_CACHE_DIR", &cache);
    command
}

/// What is missing for the macOS builds, if anything: the Rust targets, rust-lld, Zig.
fn missing() -> Option<String> {
    for target in &TARGETS {
        let libdir = rustc_prints(&["target-libdir", "--target", target.rust]);
        let has_std = libdir
            .and_then(|dir| fs::read_dir(dir).ok())
            .is_some_and(|mut files| {
                files.any(|f| {
                    f.is_ok_and(|f| f.file_name().to_string_lossy().starts_with("libstd-"))
                })
            });
        if !has_std {
            return Some(format!(
                "the Rust target {0} is not installed (`rustup target add {0}`)",
                target.rust
            ));
        }
    }
    let sysroot = rustc_prints(&["sysroot"]).unwrap_or_default();
    let lld = fs::read_dir(sysroot.join("lib/rustlib"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|host| host.path().join("bin/rust-lld").is_file());
    if !lld {
        return Some(format!(
            "no rust-lld in the Rust sysroot {} (rustup ships it with every toolchain)",
            sysroot.display()
        ));
    }
    let zig = zig()
        .arg("version")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| text(&out.stdout).trim().to_string());
    if zig.as_deref() != Some(ZIG) {
        return Some(format!(
            "Zig {ZIG} from PyPI is not installed (found {zig:?}): \
             `python3 -m pip install ziglang=={ZIG}`"
        ));
    }
    None
}

/// Whether `test` can run: when something is missing, it says what on stderr (bypassing the
/// test harness's capture, so that it shows in a passing run) and is skipped, unless under CI.
fn available(test: &str, extra: Option<String>) -> bool {
    static MISSING: OnceLock<Option<String>> = OnceLock::new();
    let Some(reason) = MISSING.get_or_init(missing).clone().or(extra) else {
        return true;
    };
    assert!(
        std::env::var_os("CI").is_none_or(|ci| ci.is_empty()),
        "{test}: {reason}; CI must run this test (.ci/run installs what it needs)"
    );
    let _ = writeln!(std::io::stderr(), "skipped {test}: {reason}");
    false
}

/// The target directory of this `cargo test`, where the release builds for macOS go too.
fn target_dir() -> &'static Path {
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap()
}

/// The release build for both Apple targets, once: the library (libagentsmd.dylib and
/// libagentsmd.a) and the CLI, as docs/platforms.md says, with SDKROOT naming Zig's
/// stand-in so that rustc asks no xcrun for one. Returns `target/<triple>/release` of `target`.
fn release(target: &Apple) -> PathBuf {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let sdkroot = run(
            Command::new(linker()).arg("--sdkroot"),
            "tools/apple-linker --sdkroot",
        );
        let mut cargo = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        cargo
            .current_dir(repo())
            .args(["build", "--release", "-p", "agentsmd", "-p", "agentsmd-cli"])
            .arg("--target-dir")
            .arg(target_dir())
            .env("SDKROOT", text(&sdkroot.stdout).trim());
        for target in &TARGETS {
            cargo.args(["--target", target.rust]);
        }
        let output = cargo.output().map_err(|err| format!("cargo: {err}"))?;
        if !output.status.success() {
            return Err(format!(
                "cargo build --release for macOS failed ({}):\n{}",
                output.status,
                text(&output.stderr)
            ));
        }
        Ok(())
    });
    if let Err(err) = built {
        panic!("{err}");
    }
    target_dir().join(target.rust).join("release")
}

fn read(path: &Path) -> (MachO, Vec<u8>) {
    let data = fs::read(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let file = MachO::parse(&data).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    (file, data)
}

/// Checks what every linked file for `target` must be: Mach-O for its CPU and for macOS,
/// loading libSystem alone (what every Mac has), and, for Apple silicon, signed with a
/// signature that holds.
fn check_linked(path: &Path, file: &MachO, data: &[u8], target: &Apple) {
    let name = path.display();
    assert_eq!(file.cpu, target.cpu, "{name}: CPU type");
    assert_eq!(
        file.platform.map(|(platform, _)| platform),
        Some(PLATFORM_MACOS),
        "{name}: built for macOS (LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX)"
    );
    assert_eq!(file.loads, [LIBSYSTEM], "{name}: loads libSystem alone");
    if target.cpu == CPU_ARM64 {
        if let Err(err) = file.check_signature(data) {
            panic!("{name}: the code signature does not hold, and Apple silicon would refuse it: {err}");
        }
    }
}

/// The header's functions as Mach-O names them: with a leading underscore.
fn header_symbols() -> BTreeSet<String> {
    let header = fs::read_to_string(repo().join("include/agentsmd.h")).unwrap();
    let names: BTreeSet<String> = declared_functions(&header)
        .into_iter()
        .map(|name| format!("_{name}"))
        .collect();
    assert!(names.len() > 20, "found only {names:?} in the header");
    names
}

/// Fails unless `found` is `expected`, naming the first few names either has alone (a linker
/// that drops the export list exports thousands of Rust symbols).
fn same_names(found: &BTreeSet<String>, expected: &BTreeSet<String>, what: &str) {
    let first = |names: Vec<&String>| {
        let shown: Vec<&String> = names.iter().take(5).copied().collect();
        format!(
            "{} {shown:?}{}",
            names.len(),
            if names.len() > 5 { " …" } else { "" }
        )
    };
    let extra: Vec<&String> = found.difference(expected).collect();
    let lacking: Vec<&String> = expected.difference(found).collect();
    assert!(
        extra.is_empty() && lacking.is_empty(),
        "{what} is not the header's {} functions: {} more, {} lacking",
        expected.len(),
        first(extra),
        first(lacking)
    );
}

#[test]
fn macos_dylib_exports_the_headers_functions_and_is_named_for_its_rpath() {
    if !available(
        "macos_dylib_exports_the_headers_functions_and_is_named_for_its_rpath",
        None,
    ) {
        return;
    }
    let expected = header_symbols();
    for target in &TARGETS {
        let path = release(target).join("libagentsmd.dylib");
        let (file, data) = read(&path);
        let name = path.display();
        assert_eq!(file.file_type, MH_DYLIB, "{name}: a dylib");
        assert_eq!(
            file.install_name.as_deref(),
            Some(INSTALL_NAME),
            "{name}: its install name (LC_ID_DYLIB)"
        );
        // What dyld binds to, and what `nm -gU` lists: both exactly the header's functions.
        same_names(
            &file.exports,
            &expected,
            &format!("{name}: the export trie"),
        );
        same_names(
            &file.defined_externals,
            &expected,
            &format!("{name}: the symbol table's external definitions"),
        );
        check_linked(&path, &file, &data, target);
    }
}

#[test]
fn macos_cli_links_for_both_cpus() {
    if !available("macos_cli_links_for_both_cpus", None) {
        return;
    }
    for target in &TARGETS {
        let path = release(target).join("agentsmd");
        let (file, data) = read(&path);
        assert_eq!(
            file.file_type,
            MH_EXECUTE,
            "{}: an executable",
            path.display()
        );
        check_linked(&path, &file, &data, target);
    }
}

/// A C program that takes the address of every function the header declares, compiled by
/// `zig cc` for `target` and linked by ld64 (tools/apple-linker, as Apple's linker would on a
/// Mac) with the archive: a function the header declares and the archive lacks fails the link,
/// and so does anything the archive needs beyond libSystem. The linker must not warn either
/// (an object built for a later macOS than the program, say).
#[test]
fn macos_archive_links_every_declared_function_into_a_c_program() {
    if !available(
        "macos_archive_links_every_declared_function_into_a_c_program",
        None,
    ) {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let functions = header_symbols();
    let addresses: Vec<String> = functions
        .iter()
        .map(|name| format!("        (fn){},\n", &name[1..]))
        .collect();
    let source = temp.path().join("every_function.c");
    fs::write(
        &source,
        format!(
            "#include <agentsmd.h>\n#include <stdio.h>\n\ntypedef void (*fn)(void);\n\n\
             int main(void) {{\n    fn functions[] = {{\n{}    }};\n    \
             printf(\"%zu\\n\", sizeof functions / sizeof functions[0]);\n    \
             return functions[0] == 0;\n}}\n",
            addresses.concat()
        ),
    )
    .unwrap();
    for target in &TARGETS {
        let object = temp
            .path()
            .join(format!("every_function-{}.o", target.rust));
        let zig_target = format!("{}.{}", target.zig, target.minimum);
        run(
            zig()
                .args(["cc", "-target", &zig_target])
                .args(STRICT_C)
                .arg("-c")
                .arg("-I")
                .arg(repo().join("include"))
                .arg(&source)
                .arg("-o")
                .arg(&object),
            &format!("zig cc -target {zig_target}"),
        );
        let exe = temp.path().join(format!("every_function-{}", target.rust));
        let link = run(
            Command::new(linker())
                .args(["-arch", target.arch])
                .arg(format!("-mmacosx-version-min={}", target.minimum))
                .arg(&object)
                .arg(release(target).join("libagentsmd.a"))
                .args(["-lSystem", "-o"])
                .arg(&exe),
            &format!("linking a C program with libagentsmd.a for {}", target.rust),
        );
        assert_eq!(
            text(&link.stderr),
            "",
            "the linker warned for {}",
            target.rust
        );
        let (file, data) = read(&exe);
        assert_eq!(file.file_type, MH_EXECUTE);
        check_linked(&exe, &file, &data, target);
    }
}

/// The Go package for darwin with `target`'s archive, through `zig cc` (`tools/go-darwin`, as
/// docs/platforms.md says): `go build ./...` and the test binary (`go test -c`), which links the
/// package, the archive and Go's runtime into one Mach-O executable.
#[test]
fn go_package_cross_builds_for_darwin() {
    let go = Command::new("go").arg("version").output();
    let no_go = (!go.is_ok_and(|out| out.status.success()))
        .then(|| "`go` is not on PATH (the Go tests need Go 1.21 or newer)".to_string());
    if !available("go_package_cross_builds_for_darwin", no_go) {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for target in &TARGETS {
        release(target);
        let test_binary = temp.path().join(format!("agentsmd-{}.test", target.goarch));
        let go = |args: &[&str]| {
            let mut command = Command::new(repo().join("tools/go-darwin"));
            command
                .arg(target.goarch)
                .args(args)
                .env("CARGO_TARGET_DIR", target_dir())
                .env("ZIG_GLOBAL_CACHE_DIR", tmp.join("zig-cache"))
                .env("ZIG_LOCAL_CACHE_DIR", tmp.join("zig-cache"))
                .env("GOTOOLCHAIN", "local")
                .env("GOPROXY", "off");
            // Go keeps its build cache under $HOME; a CI job may have none.
            let has = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
            if !has("HOME") && !has("GOCACHE") && !has("XDG_CACHE_HOME") {
                command
                    .env("GOCACHE", tmp.join("go-cache"))
                    .env("GOPATH", tmp.join("go-path"));
            }
            let what = format!("tools/go-darwin {} {args:?}", target.goarch);
            run(&mut command, &what);
        };
        go(&["build", "./..."]);
        go(&["test", "-c", "-o", test_binary.to_str().unwrap(), "."]);
        let (file, _) = read(&test_binary);
        assert_eq!(file.file_type, MH_EXECUTE, "{}", test_binary.display());
        assert_eq!(file.cpu, target.cpu, "{}", test_binary.display());
    }
}

/// `make install` of a macOS build, for a Mac, done here (TARGET=): the dylib under its own name,
/// with its install name and signature as linked, the archive, the headers and the module map, and
/// a pkg-config file whose Libs give the rpath the install name asks for. Then what Swift does with
/// the module map on a Mac: Clang (Zig's) imports `CAgentsmd` for macOS, whose `link "agentsmd"`
/// the object records for the linker, and ld64 links it with pkg-config's flags alone into a
/// program that loads `@rpath/libagentsmd.dylib` from the library directory.
#[test]
fn macos_make_install_and_swifts_module_map_link_the_dylib() {
    if !available(
        "macos_make_install_and_swifts_module_map_link_the_dylib",
        None,
    ) {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("import.m");
    fs::write(
        &source,
        "@import CAgentsmd;\nint main(void) { return agentsmd_version()[0] == '\\0'; }\n",
    )
    .unwrap();
    for target in &TARGETS {
        let root = temp.path().join(target.rust);
        run(
            Command::new("make")
                .arg("-C")
                .arg(repo())
                .args(["--no-print-directory", "install"])
                .arg(format!("TARGET={}", target.rust))
                .arg(format!("BUILT={}", release(target).display()))
                .arg(format!("PREFIX={}", root.display())),
            &format!("make install TARGET={}", target.rust),
        );
        let mut installed: Vec<String> = walk(&root)
            .iter()
            .map(|path| path.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        installed.sort();
        assert_eq!(
            installed,
            [
                "include/agentsmd.h",
                "include/agentsmd.hpp",
                "include/agentsmd/module.modulemap",
                "lib/libagentsmd.a",
                "lib/libagentsmd.dylib",
                "lib/pkgconfig/agentsmd.pc",
            ],
            "what make install TARGET={} puts in place",
            target.rust
        );
        let dylib = fs::read(root.join("lib/libagentsmd.dylib")).unwrap();
        assert!(
            dylib == fs::read(release(target).join("libagentsmd.dylib")).unwrap(),
            "the dylib is installed as linked (its install name and signature unchanged)"
        );
        let pc = fs::read_to_string(root.join("lib/pkgconfig/agentsmd.pc")).unwrap();
        for line in [
            &format!("libdir={}", root.join("lib").display()),
            "Libs: -L${libdir} -Wl,-rpath,${libdir} -lagentsmd",
            "Libs.private:",
        ] {
            assert!(
                pc.lines().any(|l| l == line),
                "agentsmd.pc lacks {line}:\n{pc}"
            );
        }

        let object = temp.path().join(format!("import-{}.o", target.rust));
        let mut map = OsString::from("-fmodule-map-file=");
        map.push(root.join("include/agentsmd/module.modulemap"));
        run(
            zig()
                .args(["cc", "-target"])
                .arg(format!("{}.{}", target.zig, target.minimum))
                .args(["-fmodules", "-Werror", "-c"])
                .arg(format!(
                    "-fmodules-cache-path={}",
                    temp.path().join("modules").display()
                ))
                .arg(map)
                .arg(&source)
                .arg("-o")
                .arg(&object),
            &format!("importing CAgentsmd for {}", target.rust),
        );
        let libs = run(
            Command::new("pkg-config")
                .args(["--libs", "agentsmd"])
                .env("PKG_CONFIG_PATH", root.join("lib/pkgconfig")),
            "pkg-config --libs agentsmd",
        );
        let exe = temp.path().join(format!("import-{}", target.rust));
        // The flags but -lagentsmd: the module asks for the library itself.
        let flags: Vec<String> = text(&libs.stdout)
            .split_whitespace()
            .filter(|flag| *flag != "-lagentsmd")
            .map(String::from)
            .collect();
        let link = run(
            Command::new(linker())
                .args(["-arch", target.arch])
                .arg(format!("-mmacosx-version-min={}", target.minimum))
                .arg(&object)
                .args(&flags)
                .args(["-lSystem", "-o"])
                .arg(&exe),
            &format!("linking the module's program for {}", target.rust),
        );
        assert_eq!(text(&link.stderr), "", "the linker warned");
        let (file, _) = read(&exe);
        assert_eq!(file.loads, [LIBSYSTEM, INSTALL_NAME], "{}", exe.display());
        assert_eq!(
            file.rpaths,
            [root.join("lib").to_str().unwrap()],
            "{}",
            exe.display()
        );
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}
