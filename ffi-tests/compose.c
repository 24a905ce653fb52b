/*
 * Composition (SPEC.md §5) through the C API: a setter each (fragments, overlays, imports with
 * their depth and count, a transform callback with its release, the interpolator, nearest, the
 * report), the result's new parts (each file's source, imports, probes, the Duplicate and
 * Superseded reasons), agentsmd_overlay_dir, and every import error of §5.4 with its
 * `PATH:LINE: ` message; presets (SPEC.md §12: agentsmd_options_set_preset and _set_home,
 * agentsmd_preset_render). Run under valgrind (tests/ffi.rs) and ASan (tests/hardening).
 *
 * Usage: compose REPO_DIR TEMP_DIR (a fresh directory the test writes its files in)
 */

#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <unistd.h>

#include "calls.h"
#include "scratch.h"

static agentsmd_bytes one(const char *s) { return str(s); }

/* New options rooted at <scratch>/<rel>. */
static agentsmd_options *rooted(const char *rel) {
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    const char *root = at(rel);
    SUCCEEDS(agentsmd_options_set_root(options, (const uint8_t *)root, strlen(root), &err));
    return options;
}

/* The chain at <scratch>/<rel>, which must succeed. */
static agentsmd_result *chain(const char *rel, const agentsmd_options *options) {
    const char *path = at(rel);
    agentsmd_result *result = NULL;
    SUCCEEDS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err));
    return result;
}

/* The chain at <scratch>/<rel> fails with `status`; the error is in `err`. */
static void chain_fails(const char *rel, const agentsmd_options *options, agentsmd_status status) {
    const char *path = at(rel);
    agentsmd_result *result = SENTINEL;
    FAILS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err), status);
    CHECK(result == SENTINEL);
}

/* File `index` of `result` is <scratch>/<rel>, of content `content` and source `source`. */
static void check_file(const agentsmd_result *result, size_t index, const char *rel,
                       const char *content, agentsmd_source source) {
    agentsmd_file file;
    SUCCEEDS(agentsmd_result_file(result, index, &file, &err));
    CHECK_BYTES(file.path, at(rel));
    CHECK_BYTES(file.content, content);
    agentsmd_source got = 0;
    SUCCEEDS(agentsmd_result_file_source(result, index, &got, &err));
    CHECK(got == source);
}

/* Omitted entry `index` of `result` is <scratch>/<rel> for `reason`, `by` <scratch>/<by>. */
static void check_omitted(const agentsmd_result *result, size_t index, const char *rel,
                          uint64_t size, agentsmd_reason reason, const char *by) {
    agentsmd_omitted omitted;
    SUCCEEDS(agentsmd_result_omitted(result, index, &omitted, &err));
    CHECK_BYTES(omitted.path, at(rel));
    CHECK(omitted.size == size);
    CHECK(omitted.reason == reason);
    CHECK_BYTES(omitted.by, at(by));
}

static void test_fragments(void) {
    make_dir("frag");
    make_dir("frag/.agents");
    make_dir("frag/.agents/AGENTS.d");
    make_dir("frag/.agents/AGENTS.d/dir.md");
    make_dir("frag/x");
    make_dir("frag/x/.agents");
    make_dir("frag/x/.agents/AGENTS.d");
    write_file("frag/AGENTS.md", "root\n");
    write_file("frag/extra.md", "extra\n");
    write_file("frag/.agents/AGENTS.d/b.md", "b\n");
    write_file("frag/.agents/AGENTS.d/a.md", "a\n");
    write_file("frag/.agents/AGENTS.d/.hidden.md", "hidden\n");
    write_file("frag/.agents/AGENTS.d/notes.txt", "notes\n");
    write_file("frag/x/.agents/AGENTS.d/c.md", "c\n");

    agentsmd_options *options = rooted("frag");
    agentsmd_bytes extra = one(at("frag/extra.md"));
    SUCCEEDS(agentsmd_options_set_extra(options, &extra, 1, &err));
    agentsmd_bytes fragments = one(".agents/AGENTS.d");
    SUCCEEDS(agentsmd_options_set_fragments(options, &fragments, 1, &err));
    agentsmd_result *result = chain("frag/x/file.c", options);
    /* Byte order, regular `.md` files not beginning with `.`; also without a primary file. */
    CHECK(agentsmd_result_file_count(result) == 5);
    check_file(result, 0, "frag/extra.md", "extra\n", AGENTSMD_SOURCE_EXTRA);
    check_file(result, 1, "frag/AGENTS.md", "root\n", AGENTSMD_SOURCE_CHAIN);
    check_file(result, 2, "frag/.agents/AGENTS.d/a.md", "a\n", AGENTSMD_SOURCE_FRAGMENT);
    check_file(result, 3, "frag/.agents/AGENTS.d/b.md", "b\n", AGENTSMD_SOURCE_FRAGMENT);
    check_file(result, 4, "frag/x/.agents/AGENTS.d/c.md", "c\n", AGENTSMD_SOURCE_FRAGMENT);
    agentsmd_source source = 99;
    INVALID(agentsmd_result_file_source(result, 5, &source, &err));
    CHECK(source == 99);
    agentsmd_result_free(result);

    /* Each element must be valid as a name is; a refused list changes nothing. */
    const char *bad[] = {"", "a//b", "../x", "/abs", "a/./b", "a/"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        agentsmd_bytes list[2] = {one("ok"), one(bad[i])};
        INVALID(agentsmd_options_set_fragments(options, list, 2, &err));
        CHECK_CONTAINS(agentsmd_error_message(err), "fragment directory");
    }
    result = chain("frag/x/file.c", options);
    CHECK(agentsmd_result_file_count(result) == 5);
    agentsmd_result_free(result);
    SUCCEEDS(agentsmd_options_set_fragments(options, NULL, 0, &err));
    result = chain("frag/x/file.c", options);
    CHECK(agentsmd_result_file_count(result) == 2);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

/* agentsmd_overlay_dir of `users` and `identity` (C strings) succeeds: its path, or NULL. */
static agentsmd_buffer *overlay_dir(const char *users, const char *identity) {
    agentsmd_buffer *buffer = SENTINEL;
    SUCCEEDS(agentsmd_overlay_dir((const uint8_t *)users, strlen(users),
                                  (const uint8_t *)identity, strlen(identity), &buffer, &err));
    CHECK(buffer != SENTINEL);
    return buffer;
}

static void test_overlay_dir(void) {
    agentsmd_buffer *dir = overlay_dir("/srv/users/", "ada.b");
    CHECK(bytes_equal(agentsmd_buffer_data(dir), agentsmd_buffer_len(dir), "/srv/users/ada.b/.agents"));
    agentsmd_buffer_free(dir);
    /* Either argument empty: no overlay, and no error. */
    CHECK(overlay_dir("", "ada") == NULL);
    CHECK(overlay_dir("/srv/users", "") == NULL);
    const char *bad[] = {".", "a/b", "a\\b", "..", "a..b", "../etc"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        agentsmd_buffer *buffer = SENTINEL;
        INVALID(agentsmd_overlay_dir((const uint8_t *)"/u", 2, (const uint8_t *)bad[i],
                                     strlen(bad[i]), &buffer, &err));
        CHECK_CONTAINS(agentsmd_error_message(err), "caller identity");
        CHECK(buffer == SENTINEL);
    }
    agentsmd_buffer *buffer = SENTINEL;
    INVALID(agentsmd_overlay_dir((const uint8_t *)"/u", 2, (const uint8_t *)"a\0b", 3, &buffer,
                                 &err));
    CHECK_CONTAINS(agentsmd_error_message(err), "caller identity");
    INVALID(agentsmd_overlay_dir((const uint8_t *)"/u\0v", 4, (const uint8_t *)"a", 1, &buffer,
                                 &err));
    INVALID(agentsmd_overlay_dir((const uint8_t *)"/u", 2, (const uint8_t *)"a", 1, NULL, &err));
    INVALID(agentsmd_overlay_dir(NULL, 2, (const uint8_t *)"a", 1, &buffer, &err));
    CHECK(buffer == SENTINEL);
}

static void test_overlays(void) {
    make_dir("over");
    make_dir("over/repo");
    make_dir("over/users");
    make_dir("over/users/ada");
    make_dir("over/users/ada/.agents");
    make_dir("over/users/ada/.agents/AGENTS.d");
    write_file("over/repo/AGENTS.md", "repo\n");
    write_file("over/users/ada/.agents/AGENTS.md", "ada\n");
    write_file("over/users/ada/.agents/README.md", "shadowed\n");
    write_file("over/users/ada/.agents/AGENTS.d/z.md", "z\n");

    agentsmd_options *options = rooted("over/repo");
    agentsmd_buffer *dir = overlay_dir(at("over/users"), "ada");
    agentsmd_bytes overlays[2] = {{agentsmd_buffer_data(dir), agentsmd_buffer_len(dir)},
                                  one(at("over/missing"))};
    SUCCEEDS(agentsmd_options_set_overlays(options, overlays, 2, &err));
    agentsmd_buffer_free(dir); /* the options hold a copy */
    agentsmd_bytes names[2] = {one("AGENTS.md"), one("README.md")};
    SUCCEEDS(agentsmd_options_set_names(options, names, 2, &err));
    agentsmd_bytes fragments = one("AGENTS.d");
    SUCCEEDS(agentsmd_options_set_fragments(options, &fragments, 1, &err));
    agentsmd_result *result = chain("over/repo/x", options);
    CHECK(agentsmd_result_file_count(result) == 3);
    check_file(result, 0, "over/repo/AGENTS.md", "repo\n", AGENTSMD_SOURCE_CHAIN);
    check_file(result, 1, "over/users/ada/.agents/AGENTS.md", "ada\n", AGENTSMD_SOURCE_OVERLAY);
    check_file(result, 2, "over/users/ada/.agents/AGENTS.d/z.md", "z\n",
               AGENTSMD_SOURCE_OVERLAY);
    CHECK(agentsmd_result_omitted_count(result) == 1);
    check_omitted(result, 0, "over/users/ada/.agents/README.md", 9, AGENTSMD_REASON_SHADOWED,
                  "over/users/ada/.agents/AGENTS.md");
    agentsmd_result_free(result);

    /* An overlay that is no directory is the chain's error; one holding NUL, the setter's. */
    agentsmd_bytes file = one(at("over/repo/AGENTS.md"));
    SUCCEEDS(agentsmd_options_set_overlays(options, &file, 1, &err));
    chain_fails("over/repo/x", options, AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK_CONTAINS(agentsmd_error_message(err), "not a directory");
    agentsmd_bytes nul = {(const uint8_t *)"/a\0b", 4};
    INVALID(agentsmd_options_set_overlays(options, &nul, 1, &err));
    SUCCEEDS(agentsmd_options_set_overlays(options, NULL, 0, &err));
    result = chain("over/repo/x", options);
    CHECK(agentsmd_result_file_count(result) == 1);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

/* Import `index` of `result`: target <scratch>/<rel>, in <scratch>/<by> at `line`. */
static void check_import(const agentsmd_result *result, size_t index, const char *rel,
                         const char *by, uint64_t line, uint32_t depth, uint64_t size,
                         uint32_t duplicate) {
    agentsmd_import import;
    SUCCEEDS(agentsmd_result_import(result, index, &import, &err));
    CHECK_BYTES(import.path, at(rel));
    CHECK_BYTES(import.by, at(by));
    CHECK(import.line == line);
    CHECK(import.depth == depth);
    CHECK(import.size == size);
    CHECK(import.duplicate == duplicate);
}

static void test_imports(void) {
    make_dir("imp");
    make_dir("imp/docs");
    make_dir("imp/sub");
    write_file("imp/AGENTS.md",
               "top\n@include style.md\n```\n@fenced.md\n```\n@docs/rules.md\n"
               "<!-- @x.md -->\n@sub/AGENTS.md\nend\n");
    write_file("imp/style.md", "style\n");
    write_file("imp/docs/rules.md", "rules\n@../style.md\n");
    write_file("imp/sub/AGENTS.md", "sub\n");

    agentsmd_options *options = rooted("imp");
    agentsmd_result *result = chain("imp/sub/x", options);
    /* Off: the directives are text, and both files are read. */
    CHECK(agentsmd_result_file_count(result) == 2);
    CHECK(agentsmd_result_import_count(result) == 0);
    agentsmd_result_free(result);

    SUCCEEDS(agentsmd_options_set_imports(options, 1, &err));
    result = chain("imp/sub/x", options);
    CHECK(agentsmd_result_file_count(result) == 1);
    check_file(result, 0, "imp/AGENTS.md",
               "top\nstyle\n```\n@fenced.md\n```\nrules\n<!-- @x.md -->\nsub\nend\n",
               AGENTSMD_SOURCE_CHAIN);
    CHECK(agentsmd_result_import_count(result) == 4);
    check_import(result, 0, "imp/style.md", "imp/AGENTS.md", 2, 1, 6, 0);
    check_import(result, 1, "imp/docs/rules.md", "imp/AGENTS.md", 6, 1, 19, 0);
    check_import(result, 2, "imp/style.md", "imp/docs/rules.md", 2, 2, 0, 1);
    check_import(result, 3, "imp/sub/AGENTS.md", "imp/AGENTS.md", 8, 1, 4, 0);
    agentsmd_import import;
    INVALID(agentsmd_result_import(result, 4, &import, &err));
    /* A top-level file already imported is not read again. */
    CHECK(agentsmd_result_omitted_count(result) == 1);
    check_omitted(result, 0, "imp/sub/AGENTS.md", 4, AGENTSMD_REASON_DUPLICATE, "imp/AGENTS.md");
    agentsmd_result_free(result);

    INVALID(agentsmd_options_set_imports(options, 2, &err));
    INVALID(agentsmd_options_set_imports(options, UINT32_MAX, &err));
    agentsmd_options_free(options);
}

/* In a directory of its own, <scratch>/err/<name>/AGENTS.md holds `text`: its chain with
 * `options` (imports on, and rooted there) fails with `status`, the message starting
 * `PATH:LINE: ` for the directive at `line` of <scratch>/err/<name>/<in>, and containing
 * `why`. */
static void import_fails(const char *name, const char *text, agentsmd_options *options,
                         agentsmd_status status, const char *in, uint64_t line,
                         const char *why) {
    char holder[SCRATCH_CAPACITY];
    FORMAT(holder, sizeof holder, "err/%s/%s", name, in);
    char dir[SCRATCH_CAPACITY], file[SCRATCH_CAPACITY], prefix[SCRATCH_CAPACITY];
    FORMAT(dir, sizeof dir, "err/%s", name);
    FORMAT(file, sizeof file, "err/%s/AGENTS.md", name);
    write_file(file, text);
    const char *root = at(dir);
    SUCCEEDS(agentsmd_options_set_root(options, (const uint8_t *)root, strlen(root), &err));
    SUCCEEDS(agentsmd_options_set_imports(options, 1, &err));
    chain_fails(file, options, status);
    FORMAT(prefix, sizeof prefix, "%s:%llu: ", at(holder), (unsigned long long)line);
    const char *message = agentsmd_error_message(err);
    if (strncmp(message, prefix, strlen(prefix)) != 0) {
        fprintf(stderr, "%s: \"%s\" does not start \"%s\"\n", name, message, prefix);
        exit(1);
    }
    CHECK_CONTAINS(message, why);
    /* The same place apart: the path and the line. */
    CHECK_BYTES(agentsmd_error_path(err), at(holder));
    CHECK(agentsmd_error_line(err) == line);
}

static void test_import_errors(void) {
    make_dir("err");
    const char *dirs[] = {"err/invalid", "err/tilde", "err/colon", "err/outside", "err/missing",
                          "err/notfile", "err/notfile/adir", "err/cycle", "err/depth",
                          "err/count", "err/large"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        make_dir(dirs[i]);
    }
    write_file("err/outside.md", "outside the scope\n");
    write_file("err/cycle/a.md", "a\n@b.md\n");
    write_file("err/cycle/b.md", "@a.md\n");
    write_file("err/depth/a.md", "@b.md\n");
    write_file("err/depth/b.md", "b\n");
    write_file("err/count/a.md", "a\n");
    write_file("err/count/b.md", "b\n");
    write_file("err/large/big.md", "0123456789abcdef\n");

    agentsmd_options *options = agentsmd_options_new();
    const agentsmd_status IMPORT = AGENTSMD_STATUS_IMPORT;
    import_fails("invalid", "x\n@include /etc/passwd\n", options, IMPORT, "AGENTS.md", 2, "invalid path");
    import_fails("tilde", "@~/notes.md\n", options, IMPORT, "AGENTS.md", 1, "invalid path");
    import_fails("colon", "@include c:rules.md\n", options, IMPORT, "AGENTS.md", 1, "invalid path");
    import_fails("outside", "@../outside.md\n", options, IMPORT, "AGENTS.md", 1, "outside the import scope");
    import_fails("missing", "@nope.md\n", options, IMPORT, "AGENTS.md", 1, "not found");
    import_fails("notfile", "@include adir\n", options, IMPORT, "AGENTS.md", 1, "not a regular file");
    import_fails("cycle", "@a.md\n", options, IMPORT, "b.md", 1, "an import cycle");
    CHECK_CONTAINS(agentsmd_error_message(err), "a.md -> ");
    SUCCEEDS(agentsmd_options_set_import_depth(options, 1, &err));
    import_fails("depth", "@a.md\n", options, IMPORT, "a.md", 1, "deeper than the import depth of 1");
    SUCCEEDS(agentsmd_options_set_import_depth(options, 0, &err));
    SUCCEEDS(agentsmd_options_set_max_imports(options, 1, &err));
    import_fails("count", "@a.md\n@b.md\n", options, IMPORT, "AGENTS.md", 2, "more than 1 imports");
    SUCCEEDS(agentsmd_options_set_max_imports(options, 0, &err));
    SUCCEEDS(agentsmd_options_set_max_bytes(options, 10, &err));
    import_fails("large", "@big.md\n", options, AGENTSMD_STATUS_TOO_LARGE, "AGENTS.md", 1, "big.md");
    SUCCEEDS(agentsmd_options_set_max_bytes(options, 0, &err));

    /* Under confinement a link out of the root is an import error. Valgrind before 3.22 lacks
     * openat2, which confinement needs; the ASan run checks this. */
    make_dir("err/out");
    write_file("err/secret.md", "secret\n");
    CHECK(symlink("../secret.md", at("err/out/link.md")) == 0);
    SUCCEEDS(agentsmd_options_set_confine(options, 1, &err));
    if (getenv("AGENTSMD_UNDER_VALGRIND") == NULL) {
        import_fails("out", "@link.md\n", options, IMPORT, "AGENTS.md", 1, "leads out of root");
    }
    agentsmd_options_free(options);
}

/* How the transform callback below answers. */
enum answer { ANSWER_OK, ANSWER_ERROR, ANSWER_NOT_FOUND, ANSWER_NONSENSE };

/* What the transform callback below was given and does. */
struct transform_state {
    int calls, releases;
    enum answer answer;
    int grow;
};

static uint32_t transform(void *userdata, const uint8_t *path, size_t path_len,
                          const uint8_t *content, size_t content_len, agentsmd_content *out,
                          agentsmd_message *message) {
    struct transform_state *state = userdata;
    state->calls++;
    CHECK(bytes_equal(path, path_len, at("tr/AGENTS.md")));
    /* The content handle is no other handle, and refuses bad arguments. */
    CHECK(agentsmd_listing_push((agentsmd_listing *)out, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(agentsmd_result_file_count((agentsmd_result *)out) == 0);
    CHECK(agentsmd_content_append(out, NULL, 1) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(agentsmd_content_append(NULL, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(agentsmd_content_append((agentsmd_content *)&state, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);
    switch (state->answer) {
    case ANSWER_OK: break;
    case ANSWER_ERROR:
        SET_MESSAGE(message, "no thanks");
        return AGENTSMD_CALLBACK_STATUS_ERROR;
    case ANSWER_NOT_FOUND: return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    case ANSWER_NONSENSE: return 7;
    }
    CHECK(agentsmd_content_append(out, (const uint8_t *)"T:", 2) == AGENTSMD_STATUS_OK);
    CHECK(agentsmd_content_append(out, NULL, 0) == AGENTSMD_STATUS_OK);
    CHECK(agentsmd_content_append(out, content, content_len) == AGENTSMD_STATUS_OK);
    for (int i = 0; i < state->grow; i++) {
        CHECK(agentsmd_content_append(out, (const uint8_t *)"0123456789", 10) ==
              AGENTSMD_STATUS_OK);
    }
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static void release(void *userdata) { ((struct transform_state *)userdata)->releases++; }

static void test_transform(void) {
    make_dir("tr");
    write_file("tr/AGENTS.md", "hello ${env:WHO}\n");
    struct transform_state state = {0, 0, ANSWER_OK, 0};
    agentsmd_transform callbacks = {&state, transform, release};
    agentsmd_options *options = rooted("tr");
    SUCCEEDS(agentsmd_options_set_transform(options, &callbacks, &err));
    agentsmd_result *result = chain("tr/x", options);
    check_file(result, 0, "tr/AGENTS.md", "T:hello ${env:WHO}\n", AGENTSMD_SOURCE_CHAIN);
    agentsmd_result_free(result);
    CHECK(state.calls == 1);

    /* A failure is the chain's Fs error, with the callback's message; so are NOT_FOUND, which
     * a transform cannot answer, and a status that is no agentsmd_callback_status. */
    state.answer = ANSWER_ERROR;
    chain_fails("tr/x", options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "no thanks");
    CHECK_CONTAINS(agentsmd_error_message(err), "tr/AGENTS.md");
    state.answer = ANSWER_NOT_FOUND;
    chain_fails("tr/x", options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "not found");
    CHECK_CONTAINS(agentsmd_error_message(err), "tr/AGENTS.md");
    state.answer = ANSWER_NONSENSE;
    chain_fails("tr/x", options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "7");
    CHECK_CONTAINS(agentsmd_error_message(err), "agentsmd_callback_status");
    state.answer = ANSWER_OK;
    /* The bounds count what it returns. */
    state.grow = 2;
    SUCCEEDS(agentsmd_options_set_max_bytes(options, 30, &err));
    chain_fails("tr/x", options, AGENTSMD_STATUS_TOO_LARGE);
    SUCCEEDS(agentsmd_options_set_max_bytes(options, 0, &err));
    state.grow = 0;

    /* A struct without its callback is refused, and nothing is released or replaced. */
    struct transform_state refused = {0, 0, 0, 0};
    agentsmd_transform incomplete = {&refused, NULL, release};
    INVALID(agentsmd_options_set_transform(options, &incomplete, &err));
    INVALID(agentsmd_options_set_transform(NULL, &callbacks, &err));
    CHECK(refused.releases == 0 && state.releases == 0);
    result = chain("tr/x", options);
    check_file(result, 0, "tr/AGENTS.md", "T:hello ${env:WHO}\n", AGENTSMD_SOURCE_CHAIN);

    /* The interpolator replaces it, releasing its userdata once; the result stays valid. */
    agentsmd_bytes names[2] = {one("WHO"), one("_X9")};
    agentsmd_bytes values[2] = {one("ada"), one("v")};
    SUCCEEDS(agentsmd_options_set_interpolator(options, names, values, 2, &err));
    CHECK(state.releases == 1);
    check_file(result, 0, "tr/AGENTS.md", "T:hello ${env:WHO}\n", AGENTSMD_SOURCE_CHAIN);
    agentsmd_result_free(result);
    result = chain("tr/x", options);
    check_file(result, 0, "tr/AGENTS.md", "hello ada\n", AGENTSMD_SOURCE_CHAIN);
    agentsmd_result_free(result);

    /* Set again, then freed with the options: released once more. */
    SUCCEEDS(agentsmd_options_set_transform(options, &callbacks, &err));
    agentsmd_options_free(options);
    CHECK(state.releases == 2);
}

static void test_interpolator(void) {
    make_dir("env");
    write_file("env/AGENTS.md", "${env:USER} ${env:HOME} ${USER} ${env:NOPE} ${env:A}\n");
    CHECK(setenv("HOME", "/home/from-the-environment", 1) == 0);
    agentsmd_options *options = rooted("env");
    agentsmd_bytes names[3] = {one("USER"), one("A"), one("A")};
    agentsmd_bytes values[3] = {one("ada"), one("first"), one("last")};
    SUCCEEDS(agentsmd_options_set_interpolator(options, names, values, 3, &err));
    agentsmd_result *result = chain("env/x", options);
    /* Only the map: HOME is in the environment and not in the map, so it stays. */
    check_file(result, 0, "env/AGENTS.md", "ada ${env:HOME} ${USER} ${env:NOPE} last\n",
               AGENTSMD_SOURCE_CHAIN);
    agentsmd_result_free(result);

    /* A name that could never match is refused, and the options are unchanged. */
    const char *bad[] = {"", "1A", "A-B", "A B", "\xc3\xa9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        agentsmd_bytes name = one(bad[i]);
        INVALID(agentsmd_options_set_interpolator(options, &name, values, 1, &err));
        CHECK_CONTAINS(agentsmd_error_message(err), "interpolator name");
    }
    INVALID(agentsmd_options_set_interpolator(options, NULL, values, 1, &err));
    INVALID(agentsmd_options_set_interpolator(options, names, NULL, 1, &err));
    INVALID(agentsmd_options_set_interpolator(NULL, names, values, 1, &err));
    result = chain("env/x", options);
    check_file(result, 0, "env/AGENTS.md", "ada ${env:HOME} ${USER} ${env:NOPE} last\n",
               AGENTSMD_SOURCE_CHAIN);
    agentsmd_result_free(result);

    /* An empty map turns the transform off. */
    SUCCEEDS(agentsmd_options_set_interpolator(options, NULL, NULL, 0, &err));
    result = chain("env/x", options);
    check_file(result, 0, "env/AGENTS.md", "${env:USER} ${env:HOME} ${USER} ${env:NOPE} ${env:A}\n",
               AGENTSMD_SOURCE_CHAIN);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

static void test_nearest(void) {
    make_dir("near");
    make_dir("near/a");
    make_dir("near/a/b");
    write_file("near/AGENTS.md", "r\n");
    write_file("near/a/AGENTS.md", "aa\n");
    write_file("near/a/b/AGENTS.md", "b\n");
    agentsmd_options *options = rooted("near");
    SUCCEEDS(agentsmd_options_set_nearest(options, 1, &err));
    agentsmd_result *result = chain("near/a/b/x", options);
    CHECK(agentsmd_result_file_count(result) == 1);
    check_file(result, 0, "near/a/b/AGENTS.md", "b\n", AGENTSMD_SOURCE_CHAIN);
    CHECK(agentsmd_result_omitted_count(result) == 2);
    check_omitted(result, 0, "near/AGENTS.md", 2, AGENTSMD_REASON_SUPERSEDED, "near/a/b/AGENTS.md");
    check_omitted(result, 1, "near/a/AGENTS.md", 3, AGENTSMD_REASON_SUPERSEDED,
                  "near/a/b/AGENTS.md");
    agentsmd_result_free(result);
    INVALID(agentsmd_options_set_nearest(options, 2, &err));
    SUCCEEDS(agentsmd_options_set_nearest(options, 0, &err));
    result = chain("near/a/b/x", options);
    CHECK(agentsmd_result_file_count(result) == 3);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

/* Probe `index` of `result` is <scratch>/<rel>, of `source`, with `outcome`. */
/* SPEC.md §9: a name of several elements names the file below each directory; with all-names
 * every name a directory has is included, none shadowing another. */
static void test_names(void) {
    make_dir("names");
    make_dir("names/.claude");
    make_dir("names/a");
    write_file("names/CLAUDE.md", "root\n");
    write_file("names/.claude/CLAUDE.md", "root nested\n");
    write_file("names/a/CLAUDE.local.md", "a local\n");
    agentsmd_options *options = rooted("names");
    agentsmd_bytes names[] = {str("CLAUDE.md"), str(".claude/CLAUDE.md"), str("CLAUDE.local.md")};
    SUCCEEDS(agentsmd_options_set_names(options, names, 3, &err));
    agentsmd_result *result = chain("names/a/x", options);
    CHECK(agentsmd_result_file_count(result) == 2);
    check_file(result, 0, "names/CLAUDE.md", "root\n", AGENTSMD_SOURCE_CHAIN);
    check_file(result, 1, "names/a/CLAUDE.local.md", "a local\n", AGENTSMD_SOURCE_CHAIN);
    CHECK(agentsmd_result_omitted_count(result) == 1);
    check_omitted(result, 0, "names/.claude/CLAUDE.md", 12, AGENTSMD_REASON_SHADOWED,
                  "names/CLAUDE.md");
    agentsmd_result_free(result);
    SUCCEEDS(agentsmd_options_set_all_names(options, 1, &err));
    result = chain("names/a/x", options);
    CHECK(agentsmd_result_file_count(result) == 3);
    check_file(result, 1, "names/.claude/CLAUDE.md", "root nested\n", AGENTSMD_SOURCE_CHAIN);
    CHECK(agentsmd_result_omitted_count(result) == 0);
    agentsmd_result_free(result);
    INVALID(agentsmd_options_set_all_names(options, 2, &err));
    INVALID(agentsmd_options_set_all_names(NULL, 1, &err));
    agentsmd_options_free(options);
}

static void check_probe(const agentsmd_result *result, size_t index, const char *rel,
                        agentsmd_source source, agentsmd_outcome outcome) {
    agentsmd_probe probe;
    SUCCEEDS(agentsmd_result_probe(result, index, &probe, &err));
    CHECK_BYTES(probe.path, at(rel));
    CHECK(probe.source == source);
    CHECK(probe.outcome == outcome);
}

static void test_report(void) {
    make_dir("rep");
    make_dir("rep/a");
    make_dir("rep/a/AGENTS.d");
    write_file("rep/AGENTS.md", "r\n");
    write_file("rep/a/AGENTS.d/f.md", "f\n");
    agentsmd_options *options = rooted("rep");
    agentsmd_result *result = chain("rep/a/x", options);
    CHECK(agentsmd_result_probe_count(result) == 0);
    agentsmd_result_free(result);

    SUCCEEDS(agentsmd_options_set_report(options, 1, &err));
    agentsmd_bytes fragments = one("AGENTS.d");
    SUCCEEDS(agentsmd_options_set_fragments(options, &fragments, 1, &err));
    result = chain("rep/a/x", options);
    CHECK(agentsmd_result_probe_count(result) == 5);
    check_probe(result, 0, "rep/AGENTS.md", AGENTSMD_SOURCE_CHAIN, AGENTSMD_OUTCOME_INCLUDED);
    check_probe(result, 1, "rep/AGENTS.d", AGENTSMD_SOURCE_FRAGMENT, AGENTSMD_OUTCOME_NOT_FOUND);
    check_probe(result, 2, "rep/a/AGENTS.md", AGENTSMD_SOURCE_CHAIN, AGENTSMD_OUTCOME_NOT_FOUND);
    check_probe(result, 3, "rep/a/AGENTS.d", AGENTSMD_SOURCE_FRAGMENT, AGENTSMD_OUTCOME_LISTED);
    check_probe(result, 4, "rep/a/AGENTS.d/f.md", AGENTSMD_SOURCE_FRAGMENT,
                AGENTSMD_OUTCOME_INCLUDED);
    agentsmd_probe probe;
    INVALID(agentsmd_result_probe(result, 5, &probe, &err));
    agentsmd_result_free(result);
    INVALID(agentsmd_options_set_report(options, 2, &err));
    agentsmd_options_free(options);
}

/* Every new function given NULL where it needs a pointer. */
/* SPEC.md §11: a cursor rule that applies by glob, one on request (available), one whose
 * front matter is unreadable (always, with a warning), and a session that gives the glob rule
 * at the first touch it matches. */
static void test_rules(void) {
    make_dir("rules");
    make_dir("rules/.cursor");
    make_dir("rules/.cursor/rules");
    make_dir("rules/src");
    write_file("rules/.cursor/rules/go.mdc", "---\nglobs: **/*.go\n---\nGo.\n");
    write_file("rules/.cursor/rules/ask.mdc", "---\ndescription: Ask me\n---\nAsked.\n");
    make_dir("rules/.claude");
    make_dir("rules/.claude/rules");
    write_file("rules/.claude/rules/bad.md", "---\npaths: {a: 1}\n---\nBad.\n");
    agentsmd_options *options = rooted("rules");
    agentsmd_rule_dir rules[] = {
        {AGENTSMD_DIALECT_CURSOR, str(".cursor/rules")},
        {AGENTSMD_DIALECT_CLAUDE, str(".claude/rules")},
    };
    SUCCEEDS(agentsmd_options_set_rules(options, rules, 2, &err));
    SUCCEEDS(agentsmd_options_set_report(options, 1, &err));

    agentsmd_result *result = chain("rules/src/main.go", options);
    CHECK(agentsmd_result_file_count(result) == 2);
    check_file(result, 0, "rules/.cursor/rules/go.mdc", "Go.\n", AGENTSMD_SOURCE_RULE);
    check_file(result, 1, "rules/.claude/rules/bad.md", "Bad.\n", AGENTSMD_SOURCE_RULE);
    CHECK(agentsmd_result_available_count(result) == 1);
    agentsmd_available available;
    SUCCEEDS(agentsmd_result_available(result, 0, &available, &err));
    CHECK_BYTES(available.path, at("rules/.cursor/rules/ask.mdc"));
    CHECK_BYTES(available.name, "ask");
    CHECK_BYTES(available.description, "Ask me");
    INVALID(agentsmd_result_available(result, 1, &available, &err));
    CHECK(agentsmd_result_warning_count(result) == 1);
    agentsmd_bytes warning;
    SUCCEEDS(agentsmd_result_warning(result, 0, &warning, &err));
    const char *bad = at("rules/.claude/rules/bad.md");
    CHECK(warning.len > strlen(bad) && memcmp(warning.ptr, bad, strlen(bad)) == 0);
    INVALID(agentsmd_result_warning(result, 1, &warning, &err));
    agentsmd_result_free(result);

    result = chain("rules/README", options);
    CHECK(agentsmd_result_file_count(result) == 1);
    check_file(result, 0, "rules/.claude/rules/bad.md", "Bad.\n", AGENTSMD_SOURCE_RULE);
    int not_matched = 0;
    for (size_t i = 0; i < agentsmd_result_probe_count(result); i++) {
        agentsmd_probe probe;
        SUCCEEDS(agentsmd_result_probe(result, i, &probe, &err));
        if (probe.outcome == AGENTSMD_OUTCOME_NOT_MATCHED) {
            CHECK_BYTES(probe.path, at("rules/.cursor/rules/go.mdc"));
            CHECK(probe.source == AGENTSMD_SOURCE_RULE);
            not_matched++;
        }
    }
    CHECK(not_matched == 1);
    agentsmd_result_free(result);

    agentsmd_session *session = NULL;
    SUCCEEDS(agentsmd_session_new(options, &session, &err));
    const char *touched[] = {"rules/README", "rules/src/main.go", "rules/a.go"};
    size_t given[] = {1, 1, 0};
    for (size_t i = 0; i < 3; i++) {
        const char *path = at(touched[i]);
        SUCCEEDS(agentsmd_session_touch(session, (const uint8_t *)path, strlen(path), &result,
                                        &err));
        CHECK(agentsmd_result_file_count(result) == given[i]);
        CHECK(agentsmd_result_available_count(result) == (i == 0 ? 1 : 0));
        agentsmd_result_free(result);
    }
    agentsmd_session_free(session);

    agentsmd_rule_dir unknown = {0, str(".cursor/rules")};
    INVALID(agentsmd_options_set_rules(options, &unknown, 1, &err));
    agentsmd_rule_dir invalid = {AGENTSMD_DIALECT_KIRO, str("a//b")};
    INVALID(agentsmd_options_set_rules(options, &invalid, 1, &err));
    INVALID(agentsmd_options_set_rules(options, NULL, 1, &err));
    agentsmd_options_free(options);
}

/* `options`' preset set to `name` (a C string; "" clears it). */
static agentsmd_status set_preset(agentsmd_options *options, const char *name) {
    return agentsmd_options_set_preset(options, (const uint8_t *)name, strlen(name), &err);
}

/* agentsmd_preset_render of `result`, the chain at <scratch>/<rel> with `options`, which must
 * succeed. */
static agentsmd_buffer *preset_render(const agentsmd_options *options, const char *rel,
                                      const agentsmd_result *result) {
    const char *path = at(rel);
    agentsmd_buffer *buffer = SENTINEL;
    SUCCEEDS(agentsmd_preset_render(options, (const uint8_t *)path, strlen(path), result,
                                    &buffer, &err));
    CHECK(buffer != NULL && buffer != SENTINEL);
    return buffer;
}

/* agentsmd_result_render of `result` equals `buffer`. */
static void check_renders_as_result(const agentsmd_result *result, const agentsmd_buffer *buffer) {
    agentsmd_buffer *plain = NULL;
    SUCCEEDS(agentsmd_result_render(result, &plain, &err));
    CHECK(agentsmd_buffer_len(plain) == agentsmd_buffer_len(buffer));
    CHECK(memcmp(agentsmd_buffer_data(plain), agentsmd_buffer_data(buffer),
                 agentsmd_buffer_len(plain)) == 0);
    agentsmd_buffer_free(plain);
}

/* Whether `a` and `b` hold the same bytes. */
static int same_bytes(agentsmd_bytes a, agentsmd_bytes b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* SPEC.md §12: presets. Codex at a path below a .git root, with the home given: the global file
 * trimmed, the whitespace-only file dropped as EMPTY, the file crossing 32 KiB cut (TRUNCATED,
 * the bytes left out), and its rendering; Claude Code's files rendered as §2 renders them; no
 * preset rendering as agentsmd_result_render; a session of Codex; an unknown preset and a home
 * holding NUL refused. */
static void test_presets(void) {
    make_dir("presets");
    make_dir("presets/.git");
    make_dir("presets/mid");
    make_dir("presets/mid/sub");
    make_dir("presets_home");
    make_dir("presets_home/.codex");
    make_dir("presets_home/.claude");
    write_file("presets/AGENTS.md", "root rules\n");
    write_file("presets/CLAUDE.md", "Claude root.\n");
    write_file("presets/mid/AGENTS.md", "  \n\t\n");
    enum { BIG = 40000, KEPT = 32768 - 11 };
    char *big = malloc(BIG + 1);
    CHECK(big != NULL);
    for (size_t i = 0; i < BIG; i++) big[i] = "0123456789abcdef"[i % 16];
    big[BIG] = '\0';
    write_file("presets/mid/sub/AGENTS.md", big);
    write_file("presets_home/.codex/AGENTS.md", "global codex\n");
    write_file("presets_home/.claude/CLAUDE.md", "global claude\n");

    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    SUCCEEDS(set_preset(options, "codex"));
    const char *home = at("presets_home");
    SUCCEEDS(agentsmd_options_set_home(options, (const uint8_t *)home, strlen(home), &err));
    const char *leaf = "presets/mid/sub/main.rs";
    agentsmd_result *result = chain(leaf, options);
    CHECK(agentsmd_result_file_count(result) == 3);
    check_file(result, 0, "presets_home/.codex/AGENTS.md", "global codex", AGENTSMD_SOURCE_EXTRA);
    check_file(result, 1, "presets/AGENTS.md", "root rules\n", AGENTSMD_SOURCE_CHAIN);
    agentsmd_file cut;
    SUCCEEDS(agentsmd_result_file(result, 2, &cut, &err));
    CHECK_BYTES(cut.path, at("presets/mid/sub/AGENTS.md"));
    CHECK(cut.content.len == KEPT && memcmp(cut.content.ptr, big, KEPT) == 0);
    CHECK(agentsmd_result_omitted_count(result) == 2);
    agentsmd_omitted omitted;
    SUCCEEDS(agentsmd_result_omitted(result, 0, &omitted, &err));
    CHECK_BYTES(omitted.path, at("presets/mid/AGENTS.md"));
    CHECK(omitted.reason == AGENTSMD_REASON_EMPTY && omitted.size == 5 && omitted.by.len == 0);
    SUCCEEDS(agentsmd_result_omitted(result, 1, &omitted, &err));
    CHECK_BYTES(omitted.path, at("presets/mid/sub/AGENTS.md"));
    CHECK(omitted.reason == AGENTSMD_REASON_TRUNCATED && omitted.size == BIG - KEPT);

    /* Codex's piece: its header for the working directory, the global text, the project
     * separator, then the project files joined by a blank line. */
    agentsmd_buffer *rendered = preset_render(options, leaf, result);
    char head[SCRATCH_CAPACITY + 128];
    FORMAT(head, sizeof head,
           "# AGENTS.md instructions for %s\n\n<INSTRUCTIONS>\nglobal codex\n\n"
           "--- project-doc ---\n\nroot rules\n\n\n",
           at("presets/mid/sub"));
    const char *tail = "\n</INSTRUCTIONS>";
    size_t head_len = strlen(head), tail_len = strlen(tail);
    const uint8_t *data = agentsmd_buffer_data(rendered);
    CHECK(agentsmd_buffer_len(rendered) == head_len + KEPT + tail_len);
    CHECK(memcmp(data, head, head_len) == 0);
    CHECK(memcmp(data + head_len, big, KEPT) == 0);
    CHECK(memcmp(data + head_len + KEPT, tail, tail_len) == 0);
    agentsmd_buffer_free(rendered);
    /* The same directory given as the path: the same working directory and piece. */
    rendered = preset_render(options, "presets/mid/sub", result);
    CHECK(agentsmd_buffer_len(rendered) == head_len + KEPT + tail_len);
    agentsmd_buffer_free(rendered);

    /* A session of Codex starts as its chain, and a later touch gives nothing (SPEC.md §12
     * with §10: Codex loads its files when it starts). */
    agentsmd_session *session = NULL;
    SUCCEEDS(agentsmd_session_new(options, &session, &err));
    const char *start = at(leaf);
    agentsmd_result *delta = NULL;
    SUCCEEDS(agentsmd_session_touch(session, (const uint8_t *)start, strlen(start), &delta, &err));
    CHECK(agentsmd_result_file_count(delta) == agentsmd_result_file_count(result));
    for (size_t i = 0; i < agentsmd_result_file_count(result); i++) {
        agentsmd_file given, chained;
        SUCCEEDS(agentsmd_result_file(delta, i, &given, &err));
        SUCCEEDS(agentsmd_result_file(result, i, &chained, &err));
        CHECK(same_bytes(given.path, chained.path) && same_bytes(given.content, chained.content));
    }
    agentsmd_result_free(delta);
    const char *later = at("presets/mid/other.rs");
    SUCCEEDS(agentsmd_session_touch(session, (const uint8_t *)later, strlen(later), &delta, &err));
    CHECK(agentsmd_result_file_count(delta) == 0);
    agentsmd_result_free(delta);
    agentsmd_session_free(session);
    agentsmd_result_free(result);

    /* Claude Code: the user's file first, then the repository's, rendered as SPEC.md §2. */
    SUCCEEDS(set_preset(options, "claude"));
    result = chain(leaf, options);
    CHECK(agentsmd_result_file_count(result) == 2);
    check_file(result, 0, "presets_home/.claude/CLAUDE.md", "global claude\n",
               AGENTSMD_SOURCE_EXTRA);
    check_file(result, 1, "presets/CLAUDE.md", "Claude root.\n", AGENTSMD_SOURCE_CHAIN);
    rendered = preset_render(options, leaf, result);
    CHECK(agentsmd_buffer_len(rendered) > 0);
    check_renders_as_result(result, rendered);
    agentsmd_buffer_free(rendered);

    /* Without a preset (cleared, or NULL options): agentsmd_result_render's bytes. */
    SUCCEEDS(agentsmd_options_set_preset(options, NULL, 0, &err));
    rendered = preset_render(options, leaf, result);
    check_renders_as_result(result, rendered);
    agentsmd_buffer_free(rendered);
    rendered = preset_render(NULL, leaf, result);
    check_renders_as_result(result, rendered);
    agentsmd_buffer_free(rendered);

    /* Refusals: an unknown name (naming the presets), a home holding NUL, NULL outputs. */
    const char *unknown[] = {"Codex", "copilot-x", " claude", "codex "};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        INVALID(set_preset(options, unknown[i]));
        CHECK_CONTAINS(agentsmd_error_message(err), "codex, opencode");
        CHECK_CONTAINS(agentsmd_error_message(err), "claude");
    }
    INVALID(agentsmd_options_set_preset(options, (const uint8_t *)"codex\0", 6, &err));
    INVALID(agentsmd_options_set_preset(NULL, (const uint8_t *)"codex", 5, &err));
    INVALID(agentsmd_options_set_preset(options, NULL, 5, &err));
    INVALID(agentsmd_options_set_home(options, (const uint8_t *)"/a\0b", 4, &err));
    INVALID(agentsmd_options_set_home(NULL, (const uint8_t *)"/a", 2, &err));
    SUCCEEDS(agentsmd_options_set_home(options, NULL, 0, &err));
    const char *path = at(leaf);
    agentsmd_buffer *buffer = SENTINEL;
    INVALID(agentsmd_preset_render(options, (const uint8_t *)path, strlen(path), result, NULL,
                                   &err));
    INVALID(agentsmd_preset_render(options, (const uint8_t *)path, strlen(path), NULL, &buffer,
                                   &err));
    INVALID(agentsmd_preset_render(options, NULL, 3, result, &buffer, &err));
    CHECK(buffer == SENTINEL);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
    free(big);
}

/* A file expected in a result: <scratch>/<rel>, its content and its source. */
struct row {
    const char *rel;
    const char *content;
    agentsmd_source source;
};

/* The files of `result` are the `count` rows, in order. */
static void check_files(const agentsmd_result *result, const struct row *rows, size_t count) {
    CHECK(agentsmd_result_file_count(result) == count);
    for (size_t i = 0; i < count; i++) {
        check_file(result, i, rows[i].rel, rows[i].content, rows[i].source);
    }
}

/* SPEC.md §12 with §10: the closed products. GitHub Copilot at a path below a .git root, with
 * the home given: the user's instructions, then from the root down each directory's
 * .github/copilot-instructions.md and AGENTS.md, with the root's .github/instructions whose
 * applyTo matches, rendered as agentsmd_result_render renders them; a session of Cursor and
 * one of Windsurf, whose first touch finds the project and gives the root's file, a touch below
 * that directory's file and its glob rule, a touch beside it nothing. */
static void test_closed_presets(void) {
    make_dir("closed");
    make_dir("closed/.git");
    make_dir("closed/.github");
    make_dir("closed/.github/instructions");
    make_dir("closed/a");
    make_dir("closed/a/.cursor");
    make_dir("closed/a/.cursor/rules");
    make_dir("closed/a/.windsurf");
    make_dir("closed/a/.windsurf/rules");
    make_dir("closed_home");
    make_dir("closed_home/.copilot");
    write_file("closed/AGENTS.md", "root agents\n");
    write_file("closed/.github/copilot-instructions.md", "repository\n");
    write_file("closed/.github/instructions/go.instructions.md",
               "---\napplyTo: \"**/*.go\"\n---\ngo\n");
    write_file("closed/.github/instructions/ts.instructions.md",
               "---\napplyTo: \"**/*.ts\"\n---\nts\n");
    write_file("closed/a/AGENTS.md", "a agents\n");
    write_file("closed/a/.cursor/rules/go.mdc", "---\nglobs: \"*.go\"\n---\ncursor go\n");
    write_file("closed/a/.windsurf/rules/go.md",
               "---\ntrigger: glob\nglobs: \"*.go\"\n---\nwindsurf go\n");
    write_file("closed_home/.copilot/copilot-instructions.md", "user\n");

    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    SUCCEEDS(set_preset(options, "copilot"));
    const char *home = at("closed_home");
    SUCCEEDS(agentsmd_options_set_home(options, (const uint8_t *)home, strlen(home), &err));
    const char *leaf = "closed/a/main.go";
    agentsmd_result *result = chain(leaf, options);
    const struct row copilot[] = {
        {"closed_home/.copilot/copilot-instructions.md", "user\n", AGENTSMD_SOURCE_EXTRA},
        {"closed/.github/copilot-instructions.md", "repository\n", AGENTSMD_SOURCE_CHAIN},
        {"closed/AGENTS.md", "root agents\n", AGENTSMD_SOURCE_CHAIN},
        {"closed/.github/instructions/go.instructions.md", "go\n", AGENTSMD_SOURCE_RULE},
        {"closed/a/AGENTS.md", "a agents\n", AGENTSMD_SOURCE_CHAIN},
    };
    check_files(result, copilot, sizeof copilot / sizeof copilot[0]);
    agentsmd_buffer *rendered = preset_render(options, leaf, result);
    CHECK(agentsmd_buffer_len(rendered) > 0);
    check_renders_as_result(result, rendered);
    agentsmd_buffer_free(rendered);
    agentsmd_result_free(result);

    const char *presets[] = {"cursor", "windsurf"};
    const struct row rules[] = {
        {"closed/a/.cursor/rules/go.mdc", "cursor go\n", AGENTSMD_SOURCE_RULE},
        {"closed/a/.windsurf/rules/go.md", "windsurf go\n", AGENTSMD_SOURCE_RULE},
    };
    for (size_t p = 0; p < 2; p++) {
        SUCCEEDS(set_preset(options, presets[p]));
        agentsmd_session *session = NULL;
        SUCCEEDS(agentsmd_session_new(options, &session, &err));
        const char *touched[] = {"closed/README.md", "closed/a/main.go", "closed/a/other.go"};
        const struct row given[][2] = {
            {{"closed/AGENTS.md", "root agents\n", AGENTSMD_SOURCE_CHAIN}},
            {{"closed/a/AGENTS.md", "a agents\n", AGENTSMD_SOURCE_CHAIN}, rules[p]},
            {{0}},
        };
        const size_t counts[] = {1, 2, 0};
        for (size_t i = 0; i < 3; i++) {
            const char *path = at(touched[i]);
            SUCCEEDS(agentsmd_session_touch(session, (const uint8_t *)path, strlen(path), &result,
                                            &err));
            check_files(result, given[i], counts[i]);
            agentsmd_result_free(result);
        }
        agentsmd_session_free(session);
    }
    agentsmd_options_free(options);
}

static void test_null_arguments(void) {
    agentsmd_bytes name = one("x");
    INVALID(agentsmd_options_set_fragments(NULL, &name, 1, &err));
    agentsmd_options *options = rooted("rep");
    INVALID(agentsmd_options_set_fragments(options, NULL, 1, &err));
    INVALID(agentsmd_options_set_overlays(NULL, &name, 1, &err));
    INVALID(agentsmd_options_set_imports(NULL, 1, &err));
    INVALID(agentsmd_options_set_import_depth(NULL, 1, &err));
    INVALID(agentsmd_options_set_max_imports(NULL, 1, &err));
    INVALID(agentsmd_options_set_nearest(NULL, 1, &err));
    INVALID(agentsmd_options_set_report(NULL, 1, &err));
    INVALID(agentsmd_options_set_transform(NULL, NULL, &err));
    INVALID(agentsmd_options_set_interpolator(NULL, NULL, NULL, 0, &err));
    CHECK(agentsmd_result_import_count(NULL) == 0);
    CHECK(agentsmd_result_probe_count(NULL) == 0);
    agentsmd_source source;
    agentsmd_import import;
    agentsmd_probe probe;
    INVALID(agentsmd_result_file_source(NULL, 0, &source, &err));
    INVALID(agentsmd_result_import(NULL, 0, &import, &err));
    INVALID(agentsmd_result_probe(NULL, 0, &probe, &err));
    agentsmd_result *result = chain("rep/a/x", options);
    INVALID(agentsmd_result_file_source(result, 0, NULL, &err));
    INVALID(agentsmd_result_import(result, 0, NULL, &err));
    INVALID(agentsmd_result_probe(result, 0, NULL, &err));
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

int main(int argc, char **argv) {
    CHECK(argc >= 3);
    FORMAT(scratch, sizeof scratch, "%s", argv[2]);
    test_fragments();
    test_overlay_dir();
    test_overlays();
    test_imports();
    test_import_errors();
    test_transform();
    test_interpolator();
    test_nearest();
    test_names();
    test_report();
    test_rules();
    test_presets();
    test_closed_presets();
    test_null_arguments();
    agentsmd_error_free(err);
    printf("compose: ok\n");
    return 0;
}
