# Sourced by the install tests (tests/install/*): each installs an artifact of dist/ the way its
# users install it and runs a program against it, in a directory of its own, with no Rust
# toolchain and no checkout in sight.
set -euo pipefail

# The checkout, for dist/ and the README; a consumer never runs in it.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dist=${AGENTSMD_DIST:-$repo/dist}
# The shared library's soname on ELF systems, as build.rs sets it.
soname=$(sed -n 's/^const SONAME: &str = "\(.*\)";$/\1/p' "$repo/build.rs")

# A scratch directory outside the checkout, removed when the test ends.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/agentsmd-install.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# Runs a consumer's command with no Rust toolchain reachable: every PATH entry that holds cargo,
# rustc or rustup is dropped, and rustup's and cargo's homes point at an empty directory.
without_rust() {
    local kept=() entry
    IFS=: read -ra entries <<<"$PATH"
    for entry in "${entries[@]}"; do
        if [ -x "$entry/cargo" ] || [ -x "$entry/rustc" ] || [ -x "$entry/rustup" ]; then
            continue
        fi
        kept+=("$entry")
    done
    mkdir -p "$scratch/no-rust"
    # The PATH joined with IFS=: in a command substitution of its own, so that CMD (a shell
    # function too) splits words as usual.
    local path
    path=$(IFS=:; echo "${kept[*]}")
    (PATH=$path RUSTUP_HOME="$scratch/no-rust" CARGO_HOME="$scratch/no-rust" \
        RUSTC=false CARGO=false "$@")
}

# The first fenced block of LANGUAGE under the README heading "### HEADING".
readme_block() {
    local heading=$1 language=$2
    awk -v heading="### $heading" -v fence="\`\`\`$language" '
        $0 == heading { inside = 1; next }
        inside && /^##/ { exit }
        inside && !block && $0 == fence { block = 1; next }
        block && $0 == "```" { exit }
        block { print }
    ' "$repo/README.md"
}

# Fails the test with a message.
fail() {
    echo "install test failed: $*" >&2
    exit 1
}
