# Sourced by the release scripts (tools/dist/*): where the checkout and dist/ are, the version,
# and the release targets of SPEC.md §8, as Rust names them.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dist=${AGENTSMD_DIST:-$repo/dist}
target_dir=${CARGO_TARGET_DIR:-$repo/target}
case "$target_dir" in /*) ;; *) target_dir=$repo/$target_dir ;; esac
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)

# Every platform a release ships the C library and the CLI for. musl is static: Rust builds no
# shared library there (its targets link the C runtime statically, which a cdylib cannot).
targets=(
    x86_64-unknown-linux-gnu
    aarch64-unknown-linux-gnu
    x86_64-unknown-linux-musl
    x86_64-apple-darwin
    aarch64-apple-darwin
    x86_64-pc-windows-gnu
    x86_64-unknown-freebsd
)

# Release builds take the dist profile (Cargo.toml: the release profile with fat LTO).
profile=dist

# Builds PACKAGES (-p ...) of TARGET with the dist profile. The x86_64 Linux release links through
# Zig against glibc 2.17's symbols, as the aarch64 one does (.cargo/config.toml), so that it loads
# on every Linux since, not only on those as new as this machine's glibc.
dist_build() {
    local target=$1
    shift
    local env=()
    case "$target" in
    x86_64-unknown-linux-gnu)
        env=(CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER="$repo/tools/zig-cc/x86_64-unknown-linux-gnu")
        ;;
    *-apple-darwin)
        # The SDK rustc would ask xcrun for (and warn, on every link, that it cannot): Zig's
        # stand-in, which tools/apple-linker links against anyway. A Mac names its own.
        if [ -z "${SDKROOT:-}" ] && [ "$(uname -s)" != Darwin ]; then
            env=(SDKROOT="$("$repo/tools/apple-linker" --sdkroot)")
        fi
        ;;
    esac
    (cd "$repo" && env ${env[@]+"${env[@]}"} cargo build --locked --profile "$profile" \
        --target "$target" "$@")
}

# The directory of TARGET's dist build.
built_dir() {
    echo "$target_dir/$1/$profile"
}

# rustc's own objcopy (LLVM's, for ELF, Mach-O and COFF alike), with the LLVM it links.
objcopy() {
    local sysroot
    sysroot=$(rustc --print sysroot)
    LD_LIBRARY_PATH=$sysroot/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
        "$sysroot/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/rust-objcopy" "$@"
}

# A static library FROM without its debug information, at TO: what a program links from it is
# the same, and it is a quarter of the size.
strip_archive() {
    objcopy --strip-debug "$1" "$2"
}
