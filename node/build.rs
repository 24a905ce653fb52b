//! The link of a Node addon, per platform, as napi-build sets it up: on macOS, Node's symbols
//! are found when the addon loads; on glibc and the BSDs the addon is never unloaded, so that
//! no thread-local destructor can run after its code is gone (STYLE.md's `dlclose` pitfall).

fn main() {
    napi_build::setup();
}
