//! A custom file system that answers in batches (`FileSystem::batches`): a chain asks one batch
//! of listings, one batch of reads and one more per level of imports, and its result is the one
//! the single questions give, with no file read that they would not read.

mod support;

use std::sync::Arc;

use agentsmd_core::fs::Batches;
use agentsmd_core::{chain, Options};
use support::{custom, ok, paths, Fault, Op, TestFs};

/// The name of the 32nd directory, `d1/d2/…/d32`.
fn deepest() -> String {
    (1..=32)
        .map(|d| format!("d{d}"))
        .collect::<Vec<_>>()
        .join("/")
}

/// The 32 directories down to [`deepest`], each with an `AGENTS.md`, under a root with one.
fn deep() -> TestFs {
    let mut fs = TestFs::new().file("AGENTS.md", "root\n");
    let mut dir = String::new();
    for depth in 1..=32 {
        dir = match dir.is_empty() {
            true => format!("d{depth}"),
            false => format!("{dir}/d{depth}"),
        };
        fs = fs.file(&format!("{dir}/AGENTS.md"), format!("level {depth}\n"));
    }
    fs
}

/// `build` twice, asked in batches and one question at a time.
fn both(build: impl Fn() -> TestFs) -> (Arc<TestFs>, Arc<TestFs>) {
    (build().batched().build(), build().build())
}

#[test]
fn a_32_deep_chain_costs_one_listing_and_one_read() {
    for file in ["", "/main.go", "/new.go"] {
        let (batched, single) = both(|| deep().file(&format!("{}/main.go", deepest()), "go\n"));
        let start = format!("{}{file}", deepest());
        let result = ok(&start[..], &custom(&batched));
        assert_eq!(result.files.len(), 33, "{start}");
        assert_eq!(result, ok(&start[..], &custom(&single)), "{start}");
        assert_eq!(batched.batches_of(Op::ListMany), 1, "{start}");
        assert_eq!(batched.batches_of(Op::ReadMany), 1, "{start}");
        assert_eq!(batched.calls(), [], "{start}: no single question");
    }
}

#[test]
fn fragments_cost_no_more_batches() {
    let (batched, single) = both(|| {
        let mut fs = deep();
        for (at, depth) in [("", 0), ("d1/d2", 2), (&deepest()[..], 32)] {
            let at = if at.is_empty() {
                String::new()
            } else {
                format!("{at}/")
            };
            fs = fs
                .file(
                    &format!("{at}.agents/AGENTS.d/b.md"),
                    format!("b {depth}\n"),
                )
                .file(
                    &format!("{at}.agents/AGENTS.d/a.md"),
                    format!("a {depth}\n"),
                )
                .file(&format!("{at}.agents/AGENTS.d/notes.txt"), "not read\n");
        }
        fs
    });
    let start = deepest();
    let options = |fs| {
        custom(fs)
            .fragments([".agents/AGENTS.d", "AGENTS.d"])
            .report(true)
    };
    let result = ok(&start[..], &options(&batched));
    assert_eq!(result.files.len(), 33 + 6);
    assert_eq!(result, ok(&start[..], &options(&single)));
    assert_eq!(batched.batches_of(Op::ListMany), 1);
    assert_eq!(batched.batches_of(Op::ReadMany), 1);
    assert_eq!(batched.calls(), []);
}

/// The root and 32 directories below it, each `AGENTS.md` importing `one.md` beside it, which
/// imports `two.md`, whose text is `two`; the root's imports `docs/root.md`, which imports
/// `../shared.md`.
fn imports_tree(two: &str) -> TestFs {
    let mut fs = TestFs::new().file("AGENTS.md", "@docs/root.md\n");
    let mut dir = String::new();
    for depth in 1..=32 {
        dir = match dir.is_empty() {
            true => format!("d{depth}"),
            false => format!("{dir}/d{depth}"),
        };
        fs = fs
            .file(
                &format!("{dir}/AGENTS.md"),
                format!("level {depth}\n@one.md\n"),
            )
            .file(&format!("{dir}/one.md"), format!("one {depth}\n@two.md\n"))
            .file(&format!("{dir}/two.md"), format!("two {depth}\n{two}"));
    }
    fs.file("docs/root.md", "@../shared.md\n")
        .file("shared.md", "shared\n")
}

#[test]
fn each_level_of_imports_costs_one_more_read() {
    let start = deepest();
    let options = |fs| custom(fs).imports(true).max_imports(200);
    // An invalid directive (`@/etc/x`) is the chain's error, as it is one question at a time.
    let (batched, single) = both(|| imports_tree("@/etc/x\n"));
    let batched_error = chain(&start, &options(&batched)).unwrap_err();
    let single_error = chain(&start, &options(&single)).unwrap_err();
    assert_eq!(batched_error.to_string(), single_error.to_string());

    let (batched, single) = both(|| imports_tree(""));
    let result = ok(&start[..], &options(&batched));
    assert_eq!(result.imports.len(), 2 + 64);
    assert_eq!(result, ok(&start[..], &options(&single)));
    assert_eq!(batched.batches_of(Op::ListMany), 1);
    assert_eq!(batched.batches_of(Op::ReadMany), 1 + 2);
    assert_eq!(batched.calls(), []);
    assert_eq!(batched.read_names(), single.read_names());
}

#[test]
fn a_listing_that_does_not_say_what_a_name_is_costs_a_stat_of_it() {
    let (batched, single) = both(|| {
        TestFs::new()
            .file("AGENTS.md", "root\n")
            .file("a/AGENTS.md", "a\n")
            .file("a/b/x.go", "")
            .unsaid("a/AGENTS.md")
    });
    let result = ok("a/b/x.go", &custom(&batched));
    assert_eq!(paths(&result.files), ["AGENTS.md", "a/AGENTS.md"]);
    assert_eq!(result, ok("a/b/x.go", &custom(&single)));
    assert_eq!(batched.calls(), [(Op::Stat, b"a/AGENTS.md".to_vec())]);
    assert_eq!(batched.batches_of(Op::ReadMany), 1);
}

#[test]
fn a_path_that_is_a_file_is_told_by_its_parents_listing() {
    // The batch lists the path as if it were a directory, and is answered "not found" for it.
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .file("a/x.go", "")
        .batched()
        .build();
    let result = ok("a/x.go", &custom(&fs));
    assert_eq!(paths(&result.files), ["AGENTS.md", "a/AGENTS.md"]);
    assert_eq!(fs.batches_of(Op::ListMany), 1);
    assert_eq!(fs.batches_of(Op::ReadMany), 1);
    assert_eq!(fs.calls(), []);
}

#[test]
fn a_name_that_is_no_directory_costs_nothing_more_under_fragments() {
    // d12/.agents is a file: the batch answers it and d12/.agents/AGENTS.d as missing ones,
    // which is all the walk needs to know of them.
    let (batched, single) = both(|| {
        deep()
            .file("d1/d2/d3/.agents", "not a directory\n")
            .file("d1/.agents/AGENTS.d/one.md", "one\n")
    });
    let options = |fs| custom(fs).fragments([".agents/AGENTS.d"]);
    let start = deepest();
    let result = ok(&start[..], &options(&batched));
    assert_eq!(result, ok(&start[..], &options(&single)));
    assert!(paths(&result.files).contains(&"d1/.agents/AGENTS.d/one.md".to_string()));
    assert_eq!(batched.batches_of(Op::ListMany), 1);
    assert_eq!(batched.batches_of(Op::ReadMany), 1);
    assert_eq!(batched.calls(), []);
}

#[test]
fn a_failed_listing_batch_is_the_chains_error_at_once() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/x.go", "")
        .fault(
            Op::ListMany,
            "a/x.go",
            Fault::Fail("the server is gone".into()),
        )
        .batched()
        .build();
    let error = chain("a/x.go", &custom(&fs)).unwrap_err();
    assert_eq!(error.kind(), agentsmd_core::ErrorKind::Fs);
    assert!(error.to_string().contains("the server is gone"), "{error}");
    assert_eq!(fs.batches_of(Op::ListMany), 1);
    assert_eq!(fs.batches_of(Op::ReadMany), 0);
    assert_eq!(fs.calls(), []);
}

#[test]
fn a_failed_batch_is_the_chains_error_naming_its_first_name() {
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n")
        .file("a/AGENTS.md", "a\n")
        .fault(
            Op::ReadMany,
            "a/AGENTS.md",
            Fault::Fail("the server is gone".into()),
        )
        .batched()
        .build();
    let error = chain("a", &custom(&fs)).unwrap_err();
    assert_eq!(error.kind(), agentsmd_core::ErrorKind::Fs);
    let message = error.to_string();
    assert!(message.contains("AGENTS.md"), "{message}");
    assert!(message.contains("the server is gone"), "{message}");
}

#[test]
fn a_file_over_max_bytes_is_too_large_as_it_is_one_question_at_a_time() {
    let (batched, single) = both(|| {
        TestFs::new()
            .file("AGENTS.md", "root\n")
            .file("a/AGENTS.md", "0123456789")
    });
    let options = |fs| custom(fs).max_bytes(9);
    let batched_error = chain("a", &options(&batched)).unwrap_err();
    let single_error = chain("a", &options(&single)).unwrap_err();
    assert_eq!(batched_error.to_string(), single_error.to_string());
    assert_eq!(batched_error.kind(), agentsmd_core::ErrorKind::TooLarge);
}

#[test]
fn a_file_system_that_batches_one_question_asks_the_other_one_name_at_a_time() {
    let start = deepest();
    let only = |lists, reads| deep().batching(Batches { lists, reads }).build();
    let lists = only(true, false);
    assert_eq!(
        ok(&start[..], &custom(&lists)),
        ok(&start[..], &custom(&deep().build()))
    );
    assert_eq!(
        (
            lists.batches_of(Op::ListMany),
            lists.batches_of(Op::ReadMany)
        ),
        (1, 0)
    );
    assert_eq!(lists.asked(Op::Read).len(), 33);
    assert_eq!(lists.asked(Op::List), Vec::<String>::new());
    assert_eq!(lists.asked(Op::Stat), Vec::<String>::new());

    let reads = only(false, true);
    assert_eq!(
        ok(&start[..], &custom(&reads)),
        ok(&start[..], &custom(&deep().build()))
    );
    assert_eq!(
        (
            reads.batches_of(Op::ListMany),
            reads.batches_of(Op::ReadMany)
        ),
        (0, 1)
    );
    assert_eq!(reads.asked(Op::Read), Vec::<String>::new());
    // The listing of each directory, and the stat of each file and of the path, once.
    assert_eq!(reads.asked(Op::List).len(), 33);
    assert_eq!(reads.asked(Op::Stat).len(), 33 + 1);
}

#[test]
fn sizes_and_errors_are_the_ones_the_single_questions_give() {
    // A fragment listed at 10 bytes that reads 60: as one question at a time, the walk reads it
    // for its listed size, and it is too large.
    let (batched, single) = both(|| {
        TestFs::new()
            .file("AGENTS.md", "root\n")
            .file_sized("AGENTS.d/x.md", "x".repeat(60), 10)
    });
    let options = |fs| custom(fs).max_bytes(50).budget(40).fragments(["AGENTS.d"]);
    let batched_error = chain(".", &options(&batched)).unwrap_err();
    assert_eq!(batched_error.kind(), agentsmd_core::ErrorKind::TooLarge);
    assert_eq!(
        batched_error.to_string(),
        chain(".", &options(&single)).unwrap_err().to_string()
    );

    // A directory of the walk that is a file is answered by the batch as a missing one (SPEC.md
    // §3.1): it lists nothing, and nothing more is asked of it.
    let fs = TestFs::new().file("a/AGENTS.md", "a\n").batched().build();
    let result = ok("a/AGENTS.md/x.go", &custom(&fs));
    assert_eq!(paths(&result.files), ["a/AGENTS.md"]);
    assert_eq!(fs.batches_of(Op::ListMany), 1);
    assert_eq!(fs.calls(), []);

    // A failed import batch is the import's error, where its directive is.
    let fs = TestFs::new()
        .file("AGENTS.md", "root\n@docs/a.md\n")
        .file("docs/a.md", "a\n")
        .fault(
            Op::ReadMany,
            "docs/a.md",
            Fault::Fail("the server is gone".into()),
        )
        .batched()
        .build();
    let error = chain(".", &custom(&fs).imports(true)).unwrap_err();
    assert_eq!(error.kind(), agentsmd_core::ErrorKind::Import);
    let message = error.to_string();
    assert!(
        message.contains("AGENTS.md:2") && message.contains("the server is gone"),
        "{message}"
    );
}

#[test]
fn names_found_under_other_spellings_are_found_as_one_question_at_a_time() {
    // A file system that finds names whatever their case, as NTFS and APFS do: an import and a
    // fragment directory spelled otherwise than listed are found, as by a stat.
    let build = |batches| {
        TestFs::new()
            .file("AGENTS.md", "root\n@readme.md\n")
            .file("README.md", "read me\n")
            .file("a/agents.d/x.md", "x\n")
            .file("a/AGENTS.md", "a\n")
            .case_insensitive()
            .batching(batches)
            .build()
    };
    let options = |fs: &Arc<TestFs>| custom(fs).imports(true).fragments(["AGENTS.d"]);
    let single = build(Batches::default());
    let want = ok("a", &options(&single));
    assert_eq!(want.imports.len(), 1, "{want:?}");
    for (lists, reads) in [(true, true), (true, false), (false, true)] {
        let batched = build(Batches { lists, reads });
        let got = ok("a", &options(&batched));
        assert_eq!(got, want, "lists {lists}, reads {reads}");
    }

    // A name under a file that a batch listed is not found, without asking the file system,
    // whose single stat of it would fail.
    let fs = TestFs::new()
        .file("a/AGENTS.md", "a\n")
        .fault(
            Op::Stat,
            "a/AGENTS.md/x.go",
            Fault::Fail("not a directory".into()),
        )
        .batched()
        .build();
    assert_eq!(
        paths(&ok("a/AGENTS.md/x.go", &custom(&fs)).files),
        ["a/AGENTS.md"]
    );
    assert_eq!(fs.calls(), []);
}

/// A small deterministic generator, so that a failing case can be run again.
struct Random(u64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// One random case: a tree, its path and options.
struct Case {
    files: Vec<(String, Vec<u8>)>,
    /// Names of another kind than a file or a directory.
    others: Vec<String>,
    /// Names whose listing does not say what they are.
    unsaid: Vec<String>,
    start: String,
    options: Options,
}

/// A random tree of up to 6 levels, with files, fragments, imports (valid, missing, cyclic,
/// duplicate, too deep), a name of another kind, and names that do not say what they are; and
/// random options over it.
fn random_case(random: &mut Random) -> Case {
    let depth = 1 + random.below(6) as usize;
    let dirs: Vec<String> = (0..=depth)
        .map(|d| {
            (1..=d)
                .map(|i| format!("d{i}"))
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    let prefix = |dir: &str| {
        if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        }
    };
    let targets = [
        "a.md",
        "b.md",
        "../a.md",
        "docs/c.md",
        "missing.md",
        "AGENTS.md",
        "A.md",
    ];
    let text = |random: &mut Random, directives: u64| {
        let mut content =
            format!("text {}\n", random.below(1000)).repeat(1 + random.below(4) as usize);
        for _ in 0..random.below(directives + 1) {
            // Mostly targets that may be there; now and then one missing, or a cycle.
            let target = match random.chance(97) {
                true => targets[random.below(4) as usize],
                false => targets[4 + random.below(3) as usize],
            };
            content.push_str(&format!("@{target}\n"));
        }
        if random.chance(20) {
            content.pop();
        }
        content.into_bytes()
    };
    let (mut files, mut others, mut unsaid) = (Vec::new(), Vec::new(), Vec::new());
    for dir in &dirs {
        let at = prefix(dir);
        for name in ["AGENTS.override.md", "AGENTS.md"] {
            match random.below(10) {
                0..=4 => files.push((format!("{at}{name}"), text(random, 3))),
                5 => others.push(format!("{at}{name}")),
                _ => {}
            }
        }
        for name in ["a.md", "b.md", "docs/c.md"] {
            if random.chance(90) {
                let directives = if random.chance(30) { 2 } else { 0 };
                files.push((format!("{at}{name}"), text(random, directives)));
            }
        }
        for name in ["AGENTS.d/x.md", "AGENTS.d/y.md", "AGENTS.d/.z.md"] {
            if random.chance(40) {
                files.push((format!("{at}{name}"), text(random, 3)));
            }
        }
        for (name, _) in files.iter().filter(|(name, _)| name.starts_with(&at)) {
            if random.chance(10) {
                unsaid.push(name.clone());
            }
        }
    }
    let leaf = dirs.last().unwrap().clone();
    let start = match random.below(3) {
        0 => leaf,
        1 => format!("{}main.go", prefix(&leaf)),
        _ => format!("{}new.go", prefix(&leaf)),
    };
    if start.ends_with("main.go") {
        files.push((start.clone(), b"package main\n".to_vec()));
    }
    let mut options = Options::new().names(["AGENTS.override.md", "AGENTS.md"]);
    if random.chance(50) {
        options = options.fragments(["AGENTS.d"]);
    }
    if random.chance(50) {
        options = options
            .imports(true)
            .import_depth(1 + random.below(4) as u32);
        options = options.max_imports(1 + random.below(40) as u32);
    }
    if random.chance(40) {
        options = options.budget(random.below(300));
    }
    if random.chance(30) {
        options = options.rendered_budget(random.below(600));
    }
    if random.chance(15) {
        options = options.max_bytes(8 + random.below(100));
    }
    if random.chance(20) {
        options = options.transform(agentsmd_core::Transform::new(|_, text| Ok(text.repeat(2))));
    }
    options = options.nearest(random.chance(25)).report(random.chance(50));
    Case {
        files,
        others,
        unsaid,
        start,
        options,
    }
}

#[test]
fn batches_answer_as_single_questions_do_and_read_nothing_more() {
    for seed in 1..=2000u64 {
        let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let Case {
            files,
            others,
            unsaid,
            start,
            options,
        } = random_case(&mut random);
        let build = |batched: bool| {
            let mut fs = TestFs::new();
            for (name, content) in &files {
                fs = fs.file(name, content);
            }
            for name in &others {
                fs = fs.other(name);
            }
            for name in &unsaid {
                fs = fs.unsaid(name);
            }
            // Now and then names are found whatever their case, as on NTFS and APFS.
            if seed % 5 == 0 {
                fs = fs.case_insensitive();
            }
            if batched {
                // Both questions in batches, or one of them.
                let (lists, reads) =
                    [(true, true), (true, false), (false, true)][seed as usize % 3];
                fs = fs.batching(Batches { lists, reads });
            }
            fs.build()
        };
        let (batched, single) = (build(true), build(false));
        let fs_options = |fs: &Arc<TestFs>| {
            let mut options = options.clone();
            options.fs = Some(Arc::clone(fs) as _);
            options
        };
        let got = chain(&start, &fs_options(&batched));
        let want = chain(&start, &fs_options(&single));
        let case = format!("seed {seed}: {start} {options:?}");
        match (&got, &want) {
            (Ok(got), Ok(want)) => {
                assert_eq!(got, want, "{case}");
                let (read, single_read) = (batched.read_names(), single.read_names());
                assert!(
                    read.is_subset(&single_read),
                    "{case}: read {read:?}, single {single_read:?}"
                );
            }
            (Err(got), Err(want)) => assert_eq!(got.to_string(), want.to_string(), "{case}"),
            _ => panic!("{case}: batched {got:?}, single {want:?}"),
        }
    }
}
