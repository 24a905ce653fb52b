//! The committed header is what cbindgen generates from the source, so nobody edits it by hand
//! and no change to the C ABI goes unseen. `AGENTSMD_UPDATE=1 cargo test` rewrites it.

use std::fs;
use std::path::Path;

#[test]
fn header_is_generated() {
    let generated = fs::read_to_string(env!("AGENTSMD_GENERATED_HEADER")).unwrap();
    let committed_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/agentsmd.h");
    if std::env::var_os("AGENTSMD_UPDATE").is_some() {
        fs::write(&committed_path, &generated).unwrap();
    }
    let committed = fs::read_to_string(&committed_path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/agentsmd.h differs from what cbindgen generates; run `AGENTSMD_UPDATE=1 cargo test` and commit it"
    );
}

#[test]
fn version_macros_match_the_package() {
    let header = fs::read_to_string(env!("AGENTSMD_GENERATED_HEADER")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(header.contains(&format!("#define AGENTSMD_VERSION \"{version}\"")));
    for (part, value) in ["MAJOR", "MINOR", "PATCH"].iter().zip(version.split('.')) {
        assert!(header.contains(&format!("#define AGENTSMD_VERSION_{part} {value}\n")));
    }
    assert!(header.contains(&format!(
        "#define AGENTSMD_PART_ID \"{}\"",
        agentsmd_core::PART_ID
    )));
}
