//! The library from each kind of program it is for, built and run for real: C++ (both headers,
//! g++), Zig (`@cImport`), a C plugin host (`dlopen`, load and unload 100 times on a thread that
//! lives on), Python (`ctypes`), `make install` with pkg-config (shared and static), the
//! soname, and Swift's module map.
//!
//! Each example of the documentation (the README's C example and the pages of `docs/`) is taken
//! from its page and compiled or run as written, so the examples cannot drift; the ones that
//! print a rendering must print exactly what the CLI prints for the fixture tree, which is the
//! golden rendering with the tree's path before each path.

mod cbuild;
mod docs;

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use cbuild::{
    built_libraries, cli_binary, compile_host, declared_functions, repo, run, succeeded as output,
    text, REPO, ZIG,
};

fn tree() -> PathBuf {
    repo().join("testdata/tree")
}

/// A file about to be created in the deepest directory of the fixture tree.
fn start() -> PathBuf {
    tree().join("a/b/c&\"d\"/new.txt")
}

/// What the CLI prints for the fixture tree with the override names and `args`.
fn cli(args: &[&OsStr]) -> Vec<u8> {
    let mut command = Command::new(cli_binary());
    command
        .arg(start())
        .arg("--root")
        .arg(tree())
        .args(["--name", "AGENTS.override.md", "--name", "AGENTS.md"])
        .args(args);
    output(&mut command, "the CLI").stdout
}

/// The rendering every consumer must print for the fixture tree: the golden file with the
/// tree's path before each path, which is also what the CLI prints.
fn expected() -> &'static [u8] {
    static EXPECTED: OnceLock<Vec<u8>> = OnceLock::new();
    EXPECTED.get_or_init(|| {
        let golden = fs::read_to_string(repo().join("testdata/golden/render.txt")).unwrap();
        let escaped = tree()
            .to_str()
            .unwrap()
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;");
        let expected = golden.replace("path=\"", &format!("path=\"{escaped}/"));
        assert_eq!(
            text(&cli(&[])),
            expected,
            "the CLI prints the golden rendering"
        );
        expected.into_bytes()
    })
}

/// The libraries the static library needs, from the pkg-config template: the C++ and C
/// programs here link with exactly those, so the template cannot fall short.
fn libs_private() -> Vec<String> {
    let template = fs::read_to_string(repo().join("agentsmd.pc.in")).unwrap();
    let line = template
        .lines()
        .find_map(|line| line.strip_prefix("Libs.private:"))
        .expect("agentsmd.pc.in has Libs.private");
    line.split_whitespace().map(str::to_string).collect()
}

// ---- C++ ----

/// Compiles the C++ file `source` into `exe` with g++ (C++17, every warning an error), linked
/// with the static library this `cargo test` built.
fn compile_cpp(source: &Path, exe: &Path) {
    let compiler = cbuild::build(exe.parent().unwrap())
        .cpp(true)
        .flag("-std=c++17")
        .get_compiler();
    output(
        compiler
            .to_command()
            .arg(source)
            .arg("-o")
            .arg(exe)
            .arg(built_libraries().join("libagentsmd.a"))
            .args(libs_private()),
        &format!("compiling {}", source.display()),
    );
}

#[test]
fn cpp_program_includes_both_headers_twice_and_renders_the_golden_file() {
    let temp = tempfile::tempdir().unwrap();
    let exe = temp.path().join("cpp");
    compile_cpp(&repo().join("ffi-tests/cpp.cpp"), &exe);
    run(&exe, &[repo()]);
}

#[test]
fn docs_cpp_example_prints_what_the_cli_prints() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("instructions.cpp");
    fs::write(&source, docs::example("docs/cpp.md", "C++", "cpp")).unwrap();
    let exe = temp.path().join("instructions");
    compile_cpp(&source, &exe);
    let out = output(
        Command::new(&exe).arg(start()).arg(tree()),
        "the C++ example of docs/cpp.md",
    );
    assert_eq!(text(&out.stdout), text(expected()));
    assert!(text(&out.stderr).contains("a/AGENTS.md: shadowed"));
}

// ---- The README's C example ----

/// The C example of the README's Install section, the first program a user of a release archive
/// builds, prints what the CLI prints for the directory it runs in with the library's default
/// root (`/`).
#[test]
fn readme_c_example_prints_the_instructions_of_the_current_directory() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("app.c");
    fs::write(&source, docs::example("README.md", "C", "c")).unwrap();
    let exe = temp.path().join("app");
    output(
        cbuild::compiler(temp.path())
            .to_command()
            .arg(&source)
            .arg("-o")
            .arg(&exe)
            .arg(built_libraries().join("libagentsmd.a"))
            .args(libs_private()),
        "compiling the README's C example",
    );
    let work = temp.path().join("work");
    fs::create_dir(&work).unwrap();
    fs::write(work.join("AGENTS.md"), "Use tabs.\n").unwrap();
    let printed = output(
        Command::new(&exe).current_dir(&work),
        "the README's C example",
    );
    let cli = output(
        Command::new(cli_binary())
            .args([".", "--root", "/"])
            .current_dir(&work),
        "the CLI",
    );
    assert_eq!(text(&printed.stdout), text(&cli.stdout));
    assert!(text(&printed.stdout).contains("Use tabs.\n"));
}

// ---- Zig ----

/// `python3 -m ziglang` (Zig from the Python package index), with its caches in the target
/// directory, after checking that the release the sources are written for is installed.
fn zig() -> Command {
    let version = Command::new("python3")
        .args(["-m", "ziglang", "version"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| text(&out.stdout).trim().to_string());
    assert!(
        version.as_deref() == Some(ZIG),
        "the Zig tests need Zig {ZIG} (found {version:?}): \
         `python3 -m pip install ziglang=={ZIG}`, as .ci/run does"
    );
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("zig-cache");
    let mut command = Command::new("python3");
    command
        .args(["-m", "ziglang"])
        .env("ZIG_GLOBAL_CACHE_DIR", &cache)
        .env("ZIG_LOCAL_CACHE_DIR", &cache);
    command
}

/// Builds the Zig program `source` into `exe`, linked with the static library this `cargo test`
/// built and Zig's own unwinder (which the Rust standard library inside needs).
fn build_zig(source: &Path, exe: &Path) {
    let mut emit = OsString::from("-femit-bin=");
    emit.push(exe);
    output(
        zig()
            .arg("build-exe")
            .arg(source)
            .args(["-lc", "-lunwind", "-I"])
            .arg(repo().join("include"))
            .arg("-I")
            .arg(repo().join("ffi-tests"))
            .arg(built_libraries().join("libagentsmd.a"))
            .arg(emit),
        &format!("building {}", source.display()),
    );
}

#[test]
fn zig_program_imports_the_header_and_renders_the_golden_file() {
    output(
        zig().args(["fmt", "--check"]).arg(repo().join("zig")),
        "zig fmt --check zig/",
    );
    let temp = tempfile::tempdir().unwrap();
    let exe = temp.path().join("chain");
    build_zig(&repo().join("zig/chain.zig"), &exe);
    let out = output(Command::new(&exe).arg(repo()), "zig/chain.zig");
    assert_eq!(text(&out.stdout), "zig: ok\n");
}

#[test]
fn docs_zig_example_prints_what_the_cli_prints() {
    let temp = tempfile::tempdir().unwrap();
    let source = temp.path().join("instructions.zig");
    fs::write(&source, docs::example("docs/zig.md", "Zig", "zig")).unwrap();
    output(
        zig().args(["fmt", "--check"]).arg(&source),
        "zig fmt --check on the Zig example of docs/zig.md",
    );
    let exe = temp.path().join("instructions");
    build_zig(&source, &exe);
    let out = output(
        Command::new(&exe).arg(start()).arg(tree()),
        "the Zig example of docs/zig.md",
    );
    assert_eq!(text(&out.stdout), text(expected()));
}

// ---- dlopen and Python ----

#[test]
fn dlopen_host_loads_and_unloads_100_times_on_a_living_thread() {
    let temp = tempfile::tempdir().unwrap();
    let exe = compile_host("dlopen", temp.path(), &["-ldl", "-lpthread"]);
    let dynamic = output(Command::new("readelf").arg("-d").arg(&exe), "readelf");
    assert!(
        !text(&dynamic.stdout).contains("libagentsmd"),
        "the host must not depend on the library at link time"
    );

    let header = fs::read_to_string(repo().join("include/agentsmd.h")).unwrap();
    let report = temp.path().join("report.txt");
    let library = private_copy(temp.path());
    let mut args: Vec<&Path> = vec![&library, repo(), &report];
    args.extend(declared_functions(&header).into_iter().map(Path::new));
    run(&exe, &args);

    // Each dlclose must unmap the library: one that stayed mapped would be pinned by a
    // thread-local destructor registered from it, which is what crashes hosts elsewhere.
    let report = fs::read_to_string(&report).unwrap();
    println!("{report}");
    assert_eq!(report.lines().count(), 3, "{report}");
    for line in report.lines() {
        assert!(
            line.ends_with("still mapped after 0 of its dlcloses")
                || line.ends_with("exited: unmapped"),
            "the library stayed mapped after dlclose:\n{report}"
        );
    }
}

/// A copy in `dir` of the shared library this `cargo test` built, without its debug sections:
/// a test that loads it many times is then safe from a rebuild of the original meanwhile, and
/// valgrind, which reads a library's debug information on every load, runs a third faster.
fn private_copy(dir: &Path) -> PathBuf {
    let copy = dir.join("libagentsmd.so");
    output(
        Command::new("objcopy")
            .arg("--strip-debug")
            .arg(built_libraries().join("libagentsmd.so"))
            .arg(&copy),
        "objcopy",
    );
    copy
}

/// python3 with AGENTSMD_LIBRARY naming a copy of the shared library in `dir`, leaving no
/// bytecode cache in the checkout.
fn python(dir: &Path) -> Command {
    let mut command = Command::new("python3");
    command
        .env("AGENTSMD_LIBRARY", private_copy(dir))
        .env("PYTHONDONTWRITEBYTECODE", "1");
    command
}

#[test]
fn python_ctypes_host_renders_loads_and_unloads() {
    let temp = tempfile::tempdir().unwrap();
    output(
        python(temp.path()).arg(repo().join("python/test_agentsmd_ctypes.py")),
        "python/test_agentsmd_ctypes.py",
    );
}

#[test]
fn docs_ctypes_example_prints_what_the_cli_prints() {
    let temp = tempfile::tempdir().unwrap();
    let out = output(
        python(temp.path())
            .arg("-c")
            .arg(docs::example("docs/c.md", "From Python's ctypes", "python"))
            .arg(start())
            .arg(tree()),
        "the ctypes example of docs/c.md",
    );
    assert_eq!(text(&out.stdout), text(expected()));
}

// ---- Installing ----

/// `make install` with `args` of the libraries this `cargo test` built.
fn make_install(args: &[&str]) -> Output {
    let mut command = Command::new("make");
    command
        .arg("-C")
        .arg(repo())
        .arg("--no-print-directory")
        .arg("install")
        .arg(format!("BUILT={}", built_libraries().display()))
        .args(args);
    output(&mut command, "make install")
}

/// The shared library's soname, as build.rs sets it.
const SONAME: &str = env!("AGENTSMD_SONAME");

/// Checks the layout `make install` left under `root` (the prefix, or DESTDIR + prefix).
fn check_installed(root: &Path, prefix: &str) {
    let version = env!("CARGO_PKG_VERSION");
    for file in [
        "include/agentsmd.h",
        "include/agentsmd.hpp",
        "include/agentsmd/module.modulemap",
        "lib/libagentsmd.a",
    ] {
        assert!(root.join(file).is_file(), "{file} is installed");
    }
    let lib = root.join("lib");
    assert!(lib.join(format!("libagentsmd.so.{version}")).is_file());
    // Relative links, so that a staged tree (DESTDIR) stays right when moved into place.
    assert_eq!(
        fs::read_link(lib.join(SONAME)).unwrap(),
        Path::new(&format!("libagentsmd.so.{version}"))
    );
    assert_eq!(
        fs::read_link(lib.join("libagentsmd.so")).unwrap(),
        Path::new(SONAME)
    );
    let pc = fs::read_to_string(lib.join("pkgconfig/agentsmd.pc")).unwrap();
    for line in [
        format!("prefix={prefix}"),
        format!("libdir={prefix}/lib"),
        format!("includedir={prefix}/include"),
        format!("Version: {version}"),
        "Libs: -L${libdir} -lagentsmd".to_string(),
        "Cflags: -I${includedir}".to_string(),
    ] {
        assert!(
            pc.lines().any(|l| l == line),
            "agentsmd.pc lacks {line}:\n{pc}"
        );
    }
}

#[test]
fn docs_make_install_builds_a_program_with_pkg_config_alone() {
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path();
    // The first C example of docs/c.md, with a main that calls it.
    let c_example = docs::example("docs/c.md", "Instructions for a path", "c");
    fs::write(
        home.join("app.c"),
        format!(
            "{c_example}\nint main(int argc, char **argv) {{\n    \
             return argc == 4 && print_instructions(argv[1], argv[2], argv[3]) == 0 ? 0 : 1;\n}}\n"
        ),
    )
    .unwrap();

    // The commands of docs/c.md as written, in a fresh home, with make run in this checkout and
    // installing the libraries this `cargo test` built.
    let script = format!(
        "set -eu\nmake() {{ command make -C '{}' --no-print-directory \"$@\"; }}\n{}",
        REPO,
        docs::example("docs/c.md", "Installing with make", "sh")
    );
    output(
        Command::new("bash")
            .arg("-c")
            .arg(script)
            .current_dir(home)
            .env("HOME", home)
            .env("BUILT", built_libraries())
            .env_remove("PKG_CONFIG_PATH"),
        "the make install commands of docs/c.md",
    );
    let prefix = home.join(".local");
    check_installed(&prefix, prefix.to_str().unwrap());

    let user = repo().join("testdata/extra/user.md");
    // What the example sets: an extra file and a 32 KiB budget.
    let expected = cli(&[
        OsStr::new("--extra"),
        user.as_os_str(),
        OsStr::new("--budget"),
        OsStr::new("32768"),
    ]);
    for (exe, shared) in [("app", true), ("app-static", false)] {
        let exe = home.join(exe);
        let dynamic = output(Command::new("readelf").arg("-d").arg(&exe), "readelf");
        assert_eq!(
            text(&dynamic.stdout).contains(&format!("Shared library: [{SONAME}]")),
            shared,
            "{} asks for {SONAME} only when linked with the shared library",
            exe.display()
        );
        let out = output(
            Command::new(&exe)
                .arg(start())
                .arg(tree())
                .arg(&user)
                .env("LD_LIBRARY_PATH", prefix.join("lib")),
            &format!("{}", exe.display()),
        );
        assert_eq!(text(&out.stdout), text(&expected));
        assert!(text(&out.stderr).contains("a/AGENTS.md (34 bytes): shadowed"));
    }
}

#[test]
fn install_stages_into_destdir_and_uninstall_removes_it_all() {
    let temp = tempfile::tempdir().unwrap();
    let stage = temp.path().join("stage");
    let destdir = format!("DESTDIR={}", stage.display());
    make_install(&[&destdir, "PREFIX=/opt/agentsmd"]);
    check_installed(&stage.join("opt/agentsmd"), "/opt/agentsmd");

    let mut command = Command::new("make");
    command.arg("-C").arg(repo()).args([
        "--no-print-directory",
        "uninstall",
        &destdir,
        "PREFIX=/opt/agentsmd",
    ]);
    output(&mut command, "make uninstall");
    let left: Vec<_> = walk(&stage).into_iter().filter(|p| !p.is_dir()).collect();
    assert!(left.is_empty(), "make uninstall left {left:?}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        }
        found.push(path);
    }
    found
}

#[test]
fn install_builds_the_release_unless_told_where_the_libraries_are() {
    let mut command = Command::new("make");
    command
        .arg("-C")
        .arg(repo())
        .args(["--no-print-directory", "-n", "install", "PREFIX=/x"])
        .env_remove("BUILT")
        .env_remove("CARGO_TARGET_DIR");
    let dry_run = text(&output(&mut command, "make -n install").stdout);
    assert!(dry_run.contains("cargo build --release --lib"), "{dry_run}");
    assert!(dry_run.contains("target/release/libagentsmd.so /x/lib/libagentsmd.so."));
}

// ---- The shared library ----

/// What it exports is tests/hardening/boundary.rs's.
#[test]
fn shared_library_names_its_abi() {
    let library = built_libraries().join("libagentsmd.so");
    let dynamic = output(
        Command::new("readelf").arg("-d").arg(&library),
        "readelf -d",
    );
    let soname = format!("Library soname: [{SONAME}]");
    assert!(
        text(&dynamic.stdout).contains(&soname),
        "no {soname} in\n{}",
        text(&dynamic.stdout)
    );
}

// ---- Swift ----

/// Swift imports C through Clang's modules. No Swift toolchain is at hand, so this holds the
/// module map to what Swift's importer needs: Clang (Zig's) builds the module from it, in the
/// checkout and installed, and the Swift example of docs/swift.md imports that module and calls
/// only functions the header declares.
#[test]
fn swift_module_map_builds_as_a_clang_module_and_the_docs_use_it() {
    let modulemap = fs::read_to_string(repo().join("include/module.modulemap")).unwrap();
    assert!(modulemap.contains("module CAgentsmd {"));
    assert!(modulemap.contains("link \"agentsmd\""));

    let temp = tempfile::tempdir().unwrap();
    let prefix = temp.path().join("prefix");
    make_install(&[&format!("PREFIX={}", prefix.display())]);
    let source = temp.path().join("import.m");
    fs::write(
        &source,
        "@import CAgentsmd;\nint main(void) { return agentsmd_version()[0] == '\\0'; }\n",
    )
    .unwrap();
    for map in [
        repo().join("include/module.modulemap"),
        prefix.join("include/agentsmd/module.modulemap"),
    ] {
        let mut map_flag = OsString::from("-fmodule-map-file=");
        map_flag.push(&map);
        output(
            zig()
                .args(["cc", "-fmodules", "-Werror", "-c"])
                .arg(format!(
                    "-fmodules-cache-path={}",
                    temp.path().join("modules").display()
                ))
                .arg(map_flag)
                .arg(&source)
                .arg("-o")
                .arg(temp.path().join("import.o")),
            &format!("importing the module of {}", map.display()),
        );
    }

    let example = docs::example("docs/swift.md", "Swift", "swift");
    assert!(example.contains("import CAgentsmd\n"));
    let header = fs::read_to_string(repo().join("include/agentsmd.h")).unwrap();
    let declared = declared_functions(&header);
    for (at, _) in example.match_indices("agentsmd_") {
        let rest = &example[at..];
        let name = &rest[..rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len())];
        if rest[name.len()..].starts_with('(') {
            assert!(
                declared.contains(&name),
                "the Swift example calls {name}, not in the header"
            );
        }
    }
}
