/*
 * Structure (SPEC.md §6) through the C API: agentsmd_parse's document (warnings, requested
 * names, resolved and unknown skills, units), skills resolved through the OS and through a
 * custom file system, the caller's list, and agentsmd_document_block's bytes, cap and dropped units,
 * against the golden blocks of testdata/golden/structure/ byte for byte.
 *
 * Usage: structure REPO_DIR TEMP_DIR
 */

#define _POSIX_C_SOURCE 200809L

#include <unistd.h>

#include "nodes.h"
#include "scratch.h"

#define PATH_CAPACITY 4096

static const char *repo; /* the repository, argv[1] */

/* The whole file at `path`, newly allocated and NUL-terminated, its length in `*len`. */
static char *read_all(const char *path, size_t *len) {
    FILE *file = fopen(path, "rb");
    CHECK(file != NULL);
    CHECK(fseek(file, 0, SEEK_END) == 0);
    long size = ftell(file);
    CHECK(size >= 0);
    rewind(file);
    char *data = malloc((size_t)size + 1);
    CHECK(data != NULL);
    CHECK(fread(data, 1, (size_t)size, file) == (size_t)size);
    CHECK(fclose(file) == 0);
    data[size] = '\0';
    *len = (size_t)size;
    return data;
}

/* The document of the C string `text` read at `path` (NULL: no file), the front matter's names
 * requested; the parse must succeed. */
static agentsmd_document *parse_at(const char *text, const char *path,
                                   const agentsmd_options *options) {
    agentsmd_document *document = NULL;
    agentsmd_error *err = NULL;
    size_t path_len = path ? strlen(path) : 0;
    CHECK_STATUS(agentsmd_parse((const uint8_t *)text, strlen(text), (const uint8_t *)path,
                                path_len, options, NULL, 0, &document, &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK(document != NULL);
    return document;
}

/* The block of `document` under `options` (NULL: the defaults); it must succeed. */
static agentsmd_block *block_of(const agentsmd_document *document,
                                       const agentsmd_block_options *options) {
    agentsmd_block *block = NULL;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_document_block(document, options, &block, &err), AGENTSMD_STATUS_OK, err);
    CHECK(block != NULL);
    return block;
}

static agentsmd_bytes block_text(const agentsmd_block *block) {
    agentsmd_bytes text = {agentsmd_block_data(block), agentsmd_block_len(block)};
    return text;
}

/* Whether `bytes` holds the C string `part`. */
static int contains(agentsmd_bytes bytes, const char *part) {
    size_t n = strlen(part);
    for (size_t at = 0; at + n <= bytes.len; at++) {
        if (memcmp(bytes.ptr + at, part, n) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Block options that take every default but those set after. */
static agentsmd_block_options defaults(void) {
    agentsmd_block_options options;
    memset(&options, 0, sizeof options);
    return options;
}

/* testdata/golden/structure/CASE/AGENTS.md read from the OS, its skills resolved beside it,
 * blocked under `options` with where "/repo/AGENTS.md" unless set: CASE/block.txt exactly. */
static void golden(const char *name, agentsmd_block_options options) {
    char dir[PATH_CAPACITY], path[PATH_CAPACITY], expected_path[PATH_CAPACITY];
    FORMAT(dir, sizeof dir, "%s/testdata/golden/structure/%s", repo, name);
    FORMAT(path, sizeof path, "%s/AGENTS.md", dir);
    FORMAT(expected_path, sizeof expected_path, "%s/block.txt", dir);
    size_t len, expected_len;
    char *text = read_all(path, &len);
    char *expected = read_all(expected_path, &expected_len);
    agentsmd_document *document = parse_at(text, path, NULL);
    if (options.where.ptr == NULL) {
        options.where = str("/repo/AGENTS.md");
    }
    agentsmd_block *block = block_of(document, &options);
    CHECK_BYTES(block_text(block), expected);
    agentsmd_block_free(block);
    agentsmd_document_free(document);
    free(expected);
    free(text);
}

/* Both sources of skills from the OS: an inline section, skills/NAME.md beside the file (its
 * path handed out), an unknown name, and the repeat counted once. */
static void skills_from_the_os(void) {
    char path[PATH_CAPACITY], skill_path[PATH_CAPACITY];
    FORMAT(path, sizeof path, "%s/testdata/golden/structure/skills_both_sources/AGENTS.md", repo);
    FORMAT(skill_path, sizeof skill_path,
           "%s/testdata/golden/structure/skills_both_sources/skills/file-one.md", repo);
    size_t len;
    char *text = read_all(path, &len);
    agentsmd_document *document = parse_at(text, path, NULL);
    agentsmd_error *err = NULL;
    CHECK(agentsmd_document_requested_count(document) == 3);
    agentsmd_bytes name;
    const char *requested[] = {"inline-one", "file-one", "missing"};
    for (size_t i = 0; i < 3; i++) {
        CHECK_STATUS(agentsmd_document_requested(document, i, &name, &err), AGENTSMD_STATUS_OK,
                     err);
        CHECK_BYTES(name, requested[i]);
    }
    CHECK(agentsmd_document_skill_count(document) == 2);
    agentsmd_skill skill;
    CHECK_STATUS(agentsmd_document_skill(document, 0, &skill, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(skill.name, "inline-one");
    CHECK_BYTES(skill.text, "Defined here.\r\n"); /* the file is CRLF */
    CHECK(skill.path.ptr == NULL && skill.path.len == 0);
    CHECK_STATUS(agentsmd_document_skill(document, 1, &skill, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(skill.name, "file-one");
    CHECK_BYTES(skill.text, "Defined in a file.\n");
    CHECK_BYTES(skill.path, skill_path);
    CHECK(agentsmd_document_unknown_count(document) == 1);
    CHECK_STATUS(agentsmd_document_unknown(document, 0, &name, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(name, "missing");
    CHECK(agentsmd_document_warning_count(document) == 0);
    agentsmd_document_free(document);
    free(text);
}

/* The units, their titles (none for the preamble), and a warning with its line. */
static void units_and_warnings(void) {
    agentsmd_document *document =
        parse_at("---\nskills: [a\n---\nintro\n\n# A ##\na\n```\n## fenced\n```\n## B\n", NULL,
                 NULL);
    agentsmd_error *err = NULL;
    CHECK(agentsmd_document_warning_count(document) == 1);
    agentsmd_warning warning;
    CHECK_STATUS(agentsmd_document_warning(document, 0, &warning, &err), AGENTSMD_STATUS_OK,
                 err);
    CHECK(warning.line == 1);
    CHECK(warning.message.len > 0);
    CHECK(agentsmd_document_requested_count(document) == 0);
    CHECK(agentsmd_document_unit_count(document) == 3);
    agentsmd_unit unit;
    CHECK_STATUS(agentsmd_document_unit(document, 0, &unit, &err), AGENTSMD_STATUS_OK, err);
    CHECK(unit.title.ptr == NULL && unit.title.len == 0);
    CHECK_BYTES(unit.text, "intro\n");
    CHECK_STATUS(agentsmd_document_unit(document, 1, &unit, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(unit.title, "A");
    CHECK_BYTES(unit.text, "# A ##\na\n```\n## fenced\n```\n");
    CHECK_STATUS(agentsmd_document_unit(document, 2, &unit, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(unit.title, "B");
    CHECK_STATUS(agentsmd_document_unit(document, 3, &unit, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    agentsmd_error_free(err);
    agentsmd_document_free(document);
}

/* The caller's list replaces the front matter's; a non-NULL empty list requests none. */
static void the_callers_list(void) {
    const char *text = "---\nskills: [a]\n---\n## Skill: a\nA\n## Skill: b\nB\n";
    agentsmd_bytes mine[] = {str("b"), str("b"), str("a")};
    agentsmd_document *document = NULL;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_parse((const uint8_t *)text, strlen(text), NULL, 0, NULL, mine, 3,
                                &document, &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK(agentsmd_document_requested_count(document) == 2);
    agentsmd_skill skill;
    CHECK_STATUS(agentsmd_document_skill(document, 0, &skill, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(skill.name, "b");
    agentsmd_document_free(document);
    CHECK_STATUS(agentsmd_parse((const uint8_t *)text, strlen(text), NULL, 0, NULL, mine, 0,
                                &document, &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK(agentsmd_document_requested_count(document) == 0);
    CHECK(agentsmd_document_skill_count(document) == 0);
    agentsmd_document_free(document);
}

/* A custom file system: sub/AGENTS.md's skills/NAME.md is sub/skills/NAME.md in it. */
static const struct node NODES[] = {
    {".", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"sub", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"sub/skills", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"sub/skills/a.md", AGENTSMD_ENTRY_KIND_FILE, "\nfrom the file system\n\n"},
    {"sub/skills/big.md", AGENTSMD_ENTRY_KIND_FILE, "0123456789"},
};
#define NODE_COUNT (sizeof NODES / sizeof NODES[0])

static uint32_t nodes_list_cb(void *userdata, const uint8_t *dir, size_t dir_len,
                              agentsmd_listing *listing, agentsmd_message *message) {
    (void)userdata, (void)message;
    nodes_list(NODES, NODE_COUNT, dir, dir_len, listing);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t nodes_stat_cb(void *userdata, const uint8_t *name, size_t len, uint32_t *kind,
                              uint64_t *size, agentsmd_message *message) {
    (void)userdata, (void)message;
    const struct node *node = node_find(NODES, NODE_COUNT, name, len);
    if (node == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *kind = node->kind;
    *size = node->content ? strlen(node->content) : 0;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t nodes_open_cb(void *userdata, const uint8_t *name, size_t len, void **file,
                              agentsmd_message *message) {
    (void)userdata, (void)message;
    const struct node *node = node_find(NODES, NODE_COUNT, name, len);
    if (node == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *file = handle_open(node);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t nodes_read_cb(void *userdata, void *file, uint8_t *buffer, size_t len,
                              size_t *read, agentsmd_message *message) {
    (void)userdata, (void)message;
    *read = handle_read(file, buffer, len);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static void nodes_close_cb(void *userdata, void *file) {
    (void)userdata;
    free(file);
}

static void skills_through_a_custom_file_system(void) {
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    agentsmd_fs fs = {NULL, nodes_list_cb, nodes_stat_cb, nodes_open_cb, nodes_read_cb,
                      nodes_close_cb, NULL};
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_fs(options, &fs, &err), AGENTSMD_STATUS_OK, err);
    agentsmd_document *document = parse_at("---\nskills: [a, b]\n---\n", "sub/AGENTS.md", options);
    CHECK(agentsmd_document_skill_count(document) == 1);
    agentsmd_skill skill;
    CHECK_STATUS(agentsmd_document_skill(document, 0, &skill, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(skill.text, "from the file system\n");
    CHECK_BYTES(skill.path, "sub/skills/a.md");
    CHECK(agentsmd_document_unknown_count(document) == 1);
    agentsmd_document_free(document);

    /* A skill file over max_bytes is TOO_LARGE; a path no valid name is INVALID_ARGUMENT. */
    CHECK_STATUS(agentsmd_options_set_max_bytes(options, 9, &err), AGENTSMD_STATUS_OK, err);
    const char *big = "---\nskills: [big]\n---\n";
    document = NULL;
    CHECK_STATUS(agentsmd_parse((const uint8_t *)big, strlen(big), (const uint8_t *)"sub/AGENTS.md",
                                13, options, NULL, 0, &document, &err),
                 AGENTSMD_STATUS_TOO_LARGE, err);
    CHECK(document == NULL);
    CHECK_CONTAINS(agentsmd_error_message(err), "sub/skills/big.md");
    agentsmd_error_free(err);
    err = NULL;
    CHECK_STATUS(agentsmd_parse((const uint8_t *)big, strlen(big), (const uint8_t *)"../x", 4,
                                options, NULL, 0, &document, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    agentsmd_error_free(err);
    agentsmd_options_free(options);
}

/* The block: defaults, the cap in force, a unit dropped and a later one kept, the options. */
static void the_block(void) {
    char big[3001];
    memset(big, 'x', 3000);
    big[3000] = '\0';
    char *text = malloc(4096);
    CHECK(text != NULL);
    FORMAT(text, 4096, "# A\na\n# Big\n%s\n# C\nc\n", big);
    agentsmd_document *document = parse_at(text, NULL, NULL);
    agentsmd_error *err = NULL;

    agentsmd_block *block = block_of(document, NULL);
    CHECK(agentsmd_block_cap(block) == AGENTSMD_DEFAULT_CAP);
    CHECK(agentsmd_block_dropped_count(block) == 0);
    agentsmd_block_free(block);

    agentsmd_block_options options = defaults();
    options.cap = 1;
    block = block_of(document, &options);
    CHECK(agentsmd_block_cap(block) == AGENTSMD_MIN_CAP);
    CHECK_BYTES(block_text(block),
                AGENTSMD_DEFAULT_HEADING "\n\n> \xe2\x9a\xa0\xef\xb8\x8f AGENTS.md exceeded 2048 "
                "bytes; 1 section(s) omitted (3007 bytes): \"Big\" \xe2\x80\x94 read AGENTS.md "
                "for the full instructions before you start.\n\n# A\na\n\n# C\nc\n");
    CHECK(agentsmd_block_dropped_count(block) == 1);
    agentsmd_dropped dropped;
    CHECK_STATUS(agentsmd_block_dropped(block, 0, &dropped, &err), AGENTSMD_STATUS_OK,
                 err);
    CHECK_BYTES(dropped.title, "Big");
    CHECK(dropped.bytes == 3007);
    CHECK_STATUS(agentsmd_block_dropped(block, 1, &dropped, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    agentsmd_error_free(err);
    err = NULL;
    agentsmd_block_free(block);

    /* An empty heading is kept as given; the preamble, name and where are the options'. */
    options.heading = str("");
    options.preamble = str("Read this first.");
    options.name = str("CLAUDE.md");
    options.where = str("/repo/CLAUDE.md");
    block = block_of(document, &options);
    agentsmd_bytes got = block_text(block);
    CHECK(bytes_equal(got.ptr, 22, "\n\nRead this first.\n\n> "));
    const char *tail = " read /repo/CLAUDE.md for the full instructions before you start.\n\n# A\n";
    CHECK(contains(got, tail));
    agentsmd_block_free(block);

    /* No unit at all is the empty block, at a pointer that is not NULL. */
    agentsmd_document *empty = parse_at("---\n---\n\n", NULL, NULL);
    block = block_of(empty, NULL);
    CHECK(agentsmd_block_len(block) == 0);
    CHECK(agentsmd_block_data(block) != NULL);
    agentsmd_block_free(block);
    agentsmd_document_free(empty);
    agentsmd_document_free(document);
    free(text);
}

/* NULL where a pointer is required, and handles of another type, are INVALID_ARGUMENT. */
static void null_and_foreign_arguments(void) {
    agentsmd_error *err = NULL;
    agentsmd_document *document = NULL;
    CHECK_STATUS(agentsmd_parse(NULL, 3, NULL, 0, NULL, NULL, 0, &document, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    agentsmd_error_free(err);
    err = NULL;
    CHECK_STATUS(agentsmd_parse(NULL, 0, NULL, 0, NULL, NULL, 0, NULL, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    agentsmd_error_free(err);
    err = NULL;
    agentsmd_block *block = NULL;
    CHECK_STATUS(agentsmd_document_block(NULL, NULL, &block, &err), AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    agentsmd_error_free(err);
    err = NULL;
    CHECK(agentsmd_document_unit_count(NULL) == 0);
    CHECK(agentsmd_block_len(NULL) == 0);
    CHECK(agentsmd_block_data(NULL) == NULL);
    agentsmd_document_free(NULL);
    agentsmd_block_free(NULL);

    document = parse_at("x\n", NULL, NULL);
    block = block_of(document, NULL);
    CHECK_STATUS(agentsmd_document_block((const agentsmd_document *)block, NULL, &block, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    CHECK_CONTAINS(agentsmd_error_message(err), "document");
    agentsmd_error_free(err);
    CHECK(agentsmd_block_cap((const agentsmd_block *)document) == 0);
    agentsmd_block_free(block);
    agentsmd_document_free(document);
}

/* Options rooted at <scratch>/<rel>, confined or not. */
static agentsmd_options *rooted(const char *rel, uint32_t confine) {
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    agentsmd_error *err = NULL;
    const char *root = at(rel);
    CHECK_STATUS(agentsmd_options_set_root(options, (const uint8_t *)root, strlen(root), &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK_STATUS(agentsmd_options_set_confine(options, confine, &err), AGENTSMD_STATUS_OK, err);
    return options;
}

/* SPEC.md §6.2 (decided): parsing takes the chain's options. Confined, a skill file whose link
 * leads out of root is not read: its name is unknown, with a warning naming the file. */
static void skills_are_confined_by_the_options(void) {
    make_dir("confine");
    make_dir("confine/repo");
    make_dir("confine/repo/skills");
    write_file("confine/secret", "API_KEY=hunter2\n");
    CHECK(symlink("../../secret", at("confine/repo/skills/netrc.md")) == 0);
    CHECK(symlink("/proc/self/environ", at("confine/repo/skills/env.md")) == 0);
    const char *text = "---\nskills: [netrc, env]\n---\nbody\n";
    const char *path = at("confine/repo/AGENTS.md");

    agentsmd_options *confined = rooted("confine/repo", 1);
    agentsmd_document *document = parse_at(text, path, confined);
    CHECK(agentsmd_document_skill_count(document) == 0);
    CHECK(agentsmd_document_unknown_count(document) == 2);
    CHECK(agentsmd_document_warning_count(document) == 2);
    agentsmd_warning warning;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_document_warning(document, 0, &warning, &err), AGENTSMD_STATUS_OK, err);
    CHECK(warning.line == 0);
    CHECK(contains(warning.message, at("confine/repo/skills/netrc.md")));
    CHECK(contains(warning.message, "escapes root"));
    agentsmd_document_free(document);
    agentsmd_options_free(confined);

    /* Unconfined, the host trusts the repository: the link is followed. */
    agentsmd_options *open = rooted("confine/repo", 0);
    document = parse_at(text, path, open);
    CHECK(agentsmd_document_skill_count(document) >= 1);
    agentsmd_skill skill;
    CHECK_STATUS(agentsmd_document_skill(document, 0, &skill, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(skill.text, "API_KEY=hunter2\n");
    agentsmd_document_free(document);
    agentsmd_options_free(open);
}

/* Issue 22 item 8: agentsmd_parse checks its path as agentsmd_chain does: a NUL inside is
 * refused, and a name over 4,096 bytes is refused. An empty path is text of no file, as NULL
 * is: the block's warning names AGENTS.md, and no skill file is looked up (the current
 * directory taken for the file would look in its parent). */
static void parse_checks_its_path_as_the_chain_does(void) {
    agentsmd_document *document = NULL;
    agentsmd_error *err = NULL;
    const char *text = "body\n";
    CHECK_STATUS(agentsmd_parse((const uint8_t *)text, strlen(text), (const uint8_t *)"a\0b", 3,
                                NULL, NULL, 0, &document, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    CHECK(document == NULL);
    agentsmd_error_free(err);
    err = NULL;
    static char long_path[5000];
    memset(long_path, 'a', sizeof long_path);
    long_path[0] = '/';
    CHECK_STATUS(agentsmd_parse((const uint8_t *)text, strlen(text), (const uint8_t *)long_path,
                                sizeof long_path, NULL, NULL, 0, &document, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    agentsmd_error_free(err);
    err = NULL;
    static char big[10000];
    memset(big, 'x', sizeof big - 1);
    memcpy(big, "## A\n", 5);
    CHECK_STATUS(agentsmd_parse((const uint8_t *)big, strlen(big), (const uint8_t *)"", 0, NULL,
                                NULL, 0, &document, &err),
                 AGENTSMD_STATUS_OK, err);
    agentsmd_block *block = block_of(document, NULL);
    CHECK(contains(block_text(block), "AGENTS.md exceeded 8192 bytes"));
    CHECK(contains(block_text(block), " read AGENTS.md for"));
    agentsmd_block_free(block);
    agentsmd_document_free(document);

    make_dir("empty");
    make_dir("empty/cwd");
    make_dir("empty/skills");
    write_file("empty/skills/x.md", "beside the current directory\n");
    char cwd[PATH_CAPACITY];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK(chdir(at("empty/cwd")) == 0);
    const char *requests = "---\nskills: [x]\n---\nbody\n";
    CHECK_STATUS(agentsmd_parse((const uint8_t *)requests, strlen(requests),
                                (const uint8_t *)"", 0, NULL, NULL, 0, &document, &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK(chdir(cwd) == 0);
    CHECK(agentsmd_document_skill_count(document) == 0);
    CHECK(agentsmd_document_unknown_count(document) == 1);
    agentsmd_document_free(document);
}

/* SPEC.md §6.5: agentsmd_parse_nearest parses the last file of source chain: not the nearest
 * directory's fragment, not an overlay; a nearest file over budget is no document (NULL). */
static void parse_nearest_parses_the_nearest_chain_file(void) {
    make_dir("near");
    make_dir("near/repo");
    make_dir("near/repo/src");
    make_dir("near/repo/src/frag");
    make_dir("near/overlay");
    write_file("near/repo/AGENTS.md", "## Root\n");
    write_file("near/repo/src/AGENTS.md", "## Src\n");
    write_file("near/repo/src/frag/z.md", "## Fragment\n");
    write_file("near/overlay/AGENTS.md", "## Overlay\n");
    agentsmd_options *options = rooted("near/repo", 0);
    agentsmd_error *err = NULL;
    agentsmd_bytes fragments[] = {str("frag")};
    CHECK_STATUS(agentsmd_options_set_fragments(options, fragments, 1, &err), AGENTSMD_STATUS_OK,
                 err);
    agentsmd_bytes overlays[] = {str(at("near/overlay"))};
    CHECK_STATUS(agentsmd_options_set_overlays(options, overlays, 1, &err), AGENTSMD_STATUS_OK,
                 err);
    const char *path = at("near/repo/src/main.c");
    agentsmd_document *document = NULL;
    CHECK_STATUS(agentsmd_parse_nearest((const uint8_t *)path, strlen(path), options, NULL, 0,
                                        &document, &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK(document != NULL);
    CHECK(agentsmd_document_unit_count(document) == 1);
    agentsmd_unit unit;
    CHECK_STATUS(agentsmd_document_unit(document, 0, &unit, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(unit.title, "Src");
    agentsmd_bytes found;
    CHECK_STATUS(agentsmd_document_path(document, &found, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(found, at("near/repo/src/AGENTS.md"));
    agentsmd_document_free(document);

    CHECK_STATUS(agentsmd_options_set_budget(options, 4, &err), AGENTSMD_STATUS_OK, err);
    document = (agentsmd_document *)1;
    CHECK_STATUS(agentsmd_parse_nearest((const uint8_t *)path, strlen(path), options, NULL, 0,
                                        &document, &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK(document == NULL);
    CHECK_STATUS(agentsmd_parse_nearest((const uint8_t *)path, strlen(path), options, NULL, 0,
                                        NULL, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    agentsmd_error_free(err);
    agentsmd_options_free(options);
}

/* SPEC.md §7 and issue 22 item 11: an error's message keeps the bytes of a path that is not
 * UTF-8 as they are on disk. */
static void an_error_message_keeps_the_bytes_of_its_path(void) {
    const char *dir = at("bytes-\xff");
    CHECK(mkdir(dir, 0755) == 0);
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    agentsmd_error *err = NULL;
    agentsmd_bytes extra[] = {str(dir)};
    CHECK_STATUS(agentsmd_options_set_extra(options, extra, 1, &err), AGENTSMD_STATUS_OK, err);
    agentsmd_result *result = NULL;
    CHECK_STATUS(agentsmd_chain((const uint8_t *)scratch, strlen(scratch), options, &result, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    CHECK_CONTAINS(agentsmd_error_message(err), dir);
    agentsmd_error_free(err);
    agentsmd_options_free(options);
}

int main(int argc, char **argv) {
    CHECK(argc >= 3);
    repo = argv[1];
    FORMAT(scratch, sizeof scratch, "%s", argv[2]);

    agentsmd_block_options options = defaults();
    golden("fits", options);
    golden("skills_both_sources", options);
    options.cap = 2048;
    golden("dropped_then_kept", options);
    golden("whole_file", options);
    options.heading = str("# Team rules");
    options.preamble = str("Follow these.");
    golden("requested_skills_header", options);

    skills_from_the_os();
    units_and_warnings();
    the_callers_list();
    skills_through_a_custom_file_system();
    the_block();
    null_and_foreign_arguments();
    skills_are_confined_by_the_options();
    parse_checks_its_path_as_the_chain_does();
    parse_nearest_parses_the_nearest_chain_file();
    an_error_message_keeps_the_bytes_of_its_path();
    return 0;
}
