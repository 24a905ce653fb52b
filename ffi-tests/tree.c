/*
 * The fixture tree testdata/tree through the C API: the chain with the default names and with
 * an override name, extra files, both budgets, byte-exact rendering (of a result and of a list
 * the caller built), the version macros, and the golden rendering through a custom file system
 * written here over the same directory.
 *
 * Usage: tree REPO_DIR [TEMP_DIR, unused]
 */

#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

#define PATH_CAPACITY 4096

static const char *repo; /* the repository, argv[1] */
static char tree[PATH_CAPACITY]; /* <repo>/testdata/tree, the root of every chain here */
static char start[PATH_CAPACITY]; /* a file about to be created in the deepest directory */

static const char *const LEAF = "a/b/c&\"d\"/AGENTS.md";

/* <repo>/testdata/tree/<rel>, or <repo>/<rel> when `rel` starts with "testdata/extra". The
 * result lives in one of a few static buffers, so several can be used at once. */
static const char *at(const char *rel) {
    static char ring[8][PATH_CAPACITY];
    static size_t next;
    char *out = ring[next++ % 8];
    if (strncmp(rel, "testdata/extra", 14) == 0) {
        FORMAT(out, PATH_CAPACITY, "%s/%s", repo, rel);
    } else {
        FORMAT(out, PATH_CAPACITY, "%s/%s", tree, rel);
    }
    return out;
}

/* The whole file at `path`, newly allocated, its length in `*len`. */
static uint8_t *read_all(const char *path, size_t *len) {
    FILE *file = fopen(path, "rb");
    CHECK(file != NULL);
    size_t capacity = 1024, used = 0;
    uint8_t *data = malloc(capacity);
    CHECK(data != NULL);
    size_t n;
    while ((n = fread(data + used, 1, capacity - used, file)) > 0) {
        used += n;
        if (used == capacity) {
            capacity *= 2;
            data = realloc(data, capacity);
            CHECK(data != NULL);
        }
    }
    CHECK(!ferror(file));
    fclose(file);
    *len = used;
    return data;
}

static uint64_t size_of(const char *path) {
    struct stat st;
    CHECK(stat(path, &st) == 0);
    return (uint64_t)st.st_size;
}

/* A growable byte string, for building expected renderings. */
struct text {
    char *data;
    size_t len, capacity;
};

static void append(struct text *t, const void *bytes, size_t n) {
    if (t->len + n + 1 > t->capacity) {
        t->capacity = (t->len + n + 1) * 2;
        t->data = realloc(t->data, t->capacity);
        CHECK(t->data != NULL);
    }
    memcpy(t->data + t->len, bytes, n);
    t->len += n;
    t->data[t->len] = '\0';
}

static void append_str(struct text *t, const char *s) { append(t, s, strlen(s)); }

/* The rendering SPEC.md §2 defines, written independently of the library. */
static void render_expected(struct text *t, const char *const *paths,
                            const agentsmd_bytes *contents, size_t n) {
    if (n == 0) {
        return;
    }
    append_str(t, "<project_context>\n");
    for (size_t i = 0; i < n; i++) {
        append_str(t, "<project_instructions path=\"");
        for (const char *p = paths[i]; *p; p++) {
            switch (*p) {
            case '&': append_str(t, "&amp;"); break;
            case '<': append_str(t, "&lt;"); break;
            case '>': append_str(t, "&gt;"); break;
            case '"': append_str(t, "&quot;"); break;
            default: append(t, p, 1);
            }
        }
        append_str(t, "\">\n");
        append(t, contents[i].ptr, contents[i].len);
        if (contents[i].len == 0 || contents[i].ptr[contents[i].len - 1] != '\n') {
            append_str(t, "\n");
        }
        append_str(t, "</project_instructions>\n");
    }
    append_str(t, "</project_context>");
}

static void check_buffer(const agentsmd_buffer *buffer, const void *expected, size_t len) {
    CHECK(agentsmd_buffer_data(buffer) != NULL);
    if (agentsmd_buffer_len(buffer) != len ||
        (len > 0 && memcmp(agentsmd_buffer_data(buffer), expected, len) != 0)) {
        fprintf(stderr,
                "rendering differs:\n--- got (%zu bytes)\n%.*s\n--- expected (%zu bytes)\n%.*s\n",
                agentsmd_buffer_len(buffer), (int)agentsmd_buffer_len(buffer),
                (const char *)agentsmd_buffer_data(buffer), len, (int)len, (const char *)expected);
        CHECK(!"the rendering is byte-exact");
    }
}

static agentsmd_options *options_with(const char *const *names, size_t names_len) {
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_root(options, (const uint8_t *)tree, strlen(tree), &err),
                 AGENTSMD_STATUS_OK, err);
    agentsmd_bytes bytes[4];
    CHECK(names_len <= 4);
    for (size_t i = 0; i < names_len; i++) {
        bytes[i] = str(names[i]);
    }
    CHECK_STATUS(agentsmd_options_set_names(options, bytes, names_len, &err), AGENTSMD_STATUS_OK,
                 err);
    CHECK(err == NULL);
    return options;
}

static const char *const OVERRIDE_NAMES[] = {"AGENTS.override.md", "AGENTS.md"};

static void set_extra_user(agentsmd_options *options) {
    /* A missing extra file is skipped; the other is cleaned lexically. */
    char missing[PATH_CAPACITY], user[PATH_CAPACITY];
    FORMAT(missing, sizeof missing, "%s/testdata/extra/missing.md", repo);
    FORMAT(user, sizeof user, "%s/testdata/tree/../extra/./user.md", repo);
    agentsmd_bytes extra[] = {str(missing), str(user)};
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_extra(options, extra, 2, &err), AGENTSMD_STATUS_OK, err);
}

static agentsmd_result *chain_at(const char *path, const agentsmd_options *options) {
    agentsmd_result *result = NULL;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK(result != NULL);
    CHECK(err == NULL);
    return result;
}

/* File `index` of `result` is the file at `rel` (see at()), with the content on disk. */
static void check_file(const agentsmd_result *result, size_t index, const char *rel) {
    agentsmd_file file;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_result_file(result, index, &file, &err), AGENTSMD_STATUS_OK, err);
    const char *path = at(rel);
    CHECK_BYTES(file.path, path);
    size_t len;
    uint8_t *content = read_all(path, &len);
    CHECK(file.content.len == len);
    CHECK(len == 0 || memcmp(file.content.ptr, content, len) == 0);
    free(content);
}

/* Omitted file `index` of `result` is the file at `rel`, left out for `reason` with its stat
 * size; `by` (or NULL) is the file standing for it. */
static void check_omitted(const agentsmd_result *result, size_t index, const char *rel,
                          agentsmd_reason reason, const char *by) {
    agentsmd_omitted omitted;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_result_omitted(result, index, &omitted, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(omitted.path, at(rel));
    CHECK(omitted.size == size_of(at(rel)));
    CHECK(omitted.reason == reason);
    CHECK_BYTES(omitted.by, by ? at(by) : "");
}

static void test_default_names(void) {
    agentsmd_options *options = options_with(NULL, 0);
    agentsmd_result *result = chain_at(start, options);
    CHECK(agentsmd_result_file_count(result) == 3);
    check_file(result, 0, "AGENTS.md");
    check_file(result, 1, "a/AGENTS.md");
    check_file(result, 2, LEAF); /* a/b/agents.md is another name, not a spelling of it */
    CHECK(agentsmd_result_omitted_count(result) == 0);
    agentsmd_result_free(result);
    agentsmd_options_free(options);

    /* The same with the default name given, and with the start directory itself. */
    const char *const names[] = {AGENTSMD_DEFAULT_NAME};
    options = options_with(names, 1);
    result = chain_at(at("a/b/c&\"d\""), options);
    CHECK(agentsmd_result_file_count(result) == 3);
    check_file(result, 2, LEAF);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

static void test_override_names(void) {
    agentsmd_options *options = options_with(OVERRIDE_NAMES, 2);
    agentsmd_result *result = chain_at(start, options);
    CHECK(agentsmd_result_file_count(result) == 3);
    check_file(result, 0, "AGENTS.md");
    check_file(result, 1, "a/AGENTS.override.md");
    check_file(result, 2, LEAF);
    CHECK(agentsmd_result_omitted_count(result) == 1);
    check_omitted(result, 0, "a/AGENTS.md", AGENTSMD_REASON_SHADOWED, "a/AGENTS.override.md");
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

static void test_extra(void) {
    agentsmd_options *options = options_with(OVERRIDE_NAMES, 2);
    set_extra_user(options);
    agentsmd_result *result = chain_at(start, options);
    CHECK(agentsmd_result_file_count(result) == 4);
    check_file(result, 0, "testdata/extra/user.md");
    check_file(result, 1, "AGENTS.md");
    check_file(result, 2, "a/AGENTS.override.md");
    check_file(result, 3, LEAF);
    CHECK(agentsmd_result_omitted_count(result) == 1);
    check_omitted(result, 0, "a/AGENTS.md", AGENTSMD_REASON_SHADOWED, "a/AGENTS.override.md");
    agentsmd_result_free(result);

    /* An empty list clears them. */
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_extra(options, NULL, 0, &err), AGENTSMD_STATUS_OK, err);
    result = chain_at(start, options);
    CHECK(agentsmd_result_file_count(result) == 3);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

/* With extra user.md and the override names, a bound that fits user.md and AGENTS.md (`two`
 * true) or user.md alone keeps those, and leaves out every file after them in order, over
 * budget with its stat size; the shadowed file stays shadowed. */
static void check_bounded(const agentsmd_result *result, int two) {
    size_t kept = two ? 2 : 1;
    CHECK(agentsmd_result_file_count(result) == kept);
    check_file(result, 0, "testdata/extra/user.md");
    if (two) {
        check_file(result, 1, "AGENTS.md");
    }
    CHECK(agentsmd_result_omitted_count(result) == 5 - kept);
    size_t i = 0;
    if (!two) {
        check_omitted(result, i++, "AGENTS.md", AGENTSMD_REASON_OVER_BUDGET, NULL);
    }
    check_omitted(result, i++, "a/AGENTS.override.md", AGENTSMD_REASON_OVER_BUDGET, NULL);
    check_omitted(result, i++, "a/AGENTS.md", AGENTSMD_REASON_SHADOWED, "a/AGENTS.override.md");
    check_omitted(result, i++, LEAF, AGENTSMD_REASON_OVER_BUDGET, NULL);
    agentsmd_omitted omitted;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_result_omitted(result, i, &omitted, &err),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, err);
    agentsmd_error_free(err);
}

static void test_budget(void) {
    uint64_t two = size_of(at("testdata/extra/user.md")) + size_of(at("AGENTS.md"));
    agentsmd_options *options = options_with(OVERRIDE_NAMES, 2);
    set_extra_user(options);
    agentsmd_error *err = NULL;

    CHECK_STATUS(agentsmd_options_set_budget(options, two, &err), AGENTSMD_STATUS_OK, err);
    agentsmd_result *result = chain_at(start, options);
    check_bounded(result, 1);
    agentsmd_result_free(result);

    CHECK_STATUS(agentsmd_options_set_budget(options, two - 1, &err), AGENTSMD_STATUS_OK, err);
    result = chain_at(start, options);
    check_bounded(result, 0);
    agentsmd_result_free(result);

    /* 0 means no budget again. */
    CHECK_STATUS(agentsmd_options_set_budget(options, 0, &err), AGENTSMD_STATUS_OK, err);
    result = chain_at(start, options);
    CHECK(agentsmd_result_file_count(result) == 4);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

static void test_rendered_budget(void) {
    agentsmd_options *options = options_with(OVERRIDE_NAMES, 2);
    set_extra_user(options);
    agentsmd_error *err = NULL;

    /* The rendering of the first two files of the unbounded chain. */
    agentsmd_result *all = chain_at(start, options);
    agentsmd_file first_two[2];
    CHECK_STATUS(agentsmd_result_file(all, 0, &first_two[0], &err), AGENTSMD_STATUS_OK, err);
    CHECK_STATUS(agentsmd_result_file(all, 1, &first_two[1], &err), AGENTSMD_STATUS_OK, err);
    agentsmd_buffer *buffer = NULL;
    CHECK_STATUS(agentsmd_render(first_two, 2, &buffer, &err), AGENTSMD_STATUS_OK, err);
    uint64_t two = agentsmd_buffer_len(buffer);
    agentsmd_buffer_free(buffer);
    agentsmd_result_free(all);

    CHECK_STATUS(agentsmd_options_set_rendered_budget(options, two, &err), AGENTSMD_STATUS_OK, err);
    agentsmd_result *result = chain_at(start, options);
    check_bounded(result, 1);
    CHECK_STATUS(agentsmd_result_render(result, &buffer, &err), AGENTSMD_STATUS_OK, err);
    CHECK(agentsmd_buffer_len(buffer) == two); /* exactly what the budget counted */
    agentsmd_buffer_free(buffer);
    agentsmd_result_free(result);

    CHECK_STATUS(agentsmd_options_set_rendered_budget(options, two - 1, &err), AGENTSMD_STATUS_OK,
                 err);
    result = chain_at(start, options);
    check_bounded(result, 0);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

static void test_render(void) {
    agentsmd_error *err = NULL;
    agentsmd_buffer *buffer = NULL;

    /* SPEC.md's own example, written out. */
    agentsmd_file spec[] = {{str("/r/AGENTS.md"), str("root rules\n")},
                            {str("/r/a \"b\"/AGENTS.md"), str("leaf & <x>")}};
    const char *spec_expected = "<project_context>\n"
                                "<project_instructions path=\"/r/AGENTS.md\">\n"
                                "root rules\n"
                                "</project_instructions>\n"
                                "<project_instructions path=\"/r/a &quot;b&quot;/AGENTS.md\">\n"
                                "leaf & <x>\n"
                                "</project_instructions>\n"
                                "</project_context>";
    CHECK_STATUS(agentsmd_render(spec, 2, &buffer, &err), AGENTSMD_STATUS_OK, err);
    check_buffer(buffer, spec_expected, strlen(spec_expected));
    agentsmd_buffer_free(buffer);

    /* No files render as an empty buffer, whose data is still not NULL. */
    buffer = NULL;
    CHECK_STATUS(agentsmd_render(NULL, 0, &buffer, &err), AGENTSMD_STATUS_OK, err);
    CHECK(buffer != NULL);
    check_buffer(buffer, "", 0);
    agentsmd_buffer_free(buffer);

    /* Content is verbatim bytes, NUL included; empty content and path render too. */
    static const uint8_t nul[] = {'x', '\0', '<'};
    agentsmd_file odd[] = {{str("p"), {nul, 3}}, {{NULL, 0}, {NULL, 0}}};
    const char odd_expected[] = "<project_context>\n<project_instructions path=\"p\">\nx\0<\n"
                                "</project_instructions>\n<project_instructions path=\"\">\n\n"
                                "</project_instructions>\n</project_context>";
    CHECK_STATUS(agentsmd_render(odd, 2, &buffer, &err), AGENTSMD_STATUS_OK, err);
    check_buffer(buffer, odd_expected, sizeof odd_expected - 1);
    agentsmd_buffer_free(buffer);

    /* A result renders its files as they are on disk. */
    agentsmd_options *options = options_with(NULL, 0);
    agentsmd_result *result = chain_at(start, options);
    const char *rels[] = {"AGENTS.md", "a/AGENTS.md", LEAF};
    const char *paths[3];
    const char *rewritten[3];
    char rewritten_storage[3][PATH_CAPACITY];
    agentsmd_bytes contents[3];
    uint8_t *on_disk[3];
    agentsmd_file files[3];
    for (size_t i = 0; i < 3; i++) {
        paths[i] = at(rels[i]);
        contents[i].ptr = on_disk[i] = read_all(paths[i], &contents[i].len);
        FORMAT(rewritten_storage[i], PATH_CAPACITY, "workspace/%s", rels[i]);
        rewritten[i] = rewritten_storage[i];
        /* The caller's own list: the result's content with a rewritten path. */
        CHECK_STATUS(agentsmd_result_file(result, i, &files[i], &err), AGENTSMD_STATUS_OK, err);
        files[i].path = str(rewritten[i]);
    }
    struct text expected = {NULL, 0, 0};
    render_expected(&expected, paths, contents, 3);
    CHECK_CONTAINS(expected.data, "c&amp;&quot;d&quot;/AGENTS.md\">\nleaf & <x>, no newline at the "
                                  "end\n</project_instructions>\n</project_context>");
    CHECK_STATUS(agentsmd_result_render(result, &buffer, &err), AGENTSMD_STATUS_OK, err);
    check_buffer(buffer, expected.data, expected.len);
    agentsmd_buffer_free(buffer);

    expected.len = 0;
    render_expected(&expected, rewritten, contents, 3);
    CHECK_CONTAINS(expected.data, "path=\"workspace/a/b/c&amp;&quot;d&quot;/AGENTS.md\"");
    CHECK_STATUS(agentsmd_render(files, 3, &buffer, &err), AGENTSMD_STATUS_OK, err);
    check_buffer(buffer, expected.data, expected.len);
    agentsmd_buffer_free(buffer);

    free(expected.data);
    for (size_t i = 0; i < 3; i++) {
        free(on_disk[i]);
    }
    agentsmd_result_free(result);
    agentsmd_options_free(options);
    CHECK(err == NULL);
}

static void test_version(void) {
    CHECK(agentsmd_version() != NULL);
    CHECK(strcmp(agentsmd_version(), AGENTSMD_VERSION) == 0);
    char parts[64];
    FORMAT(parts, sizeof parts, "%d.%d.%d", AGENTSMD_VERSION_MAJOR, AGENTSMD_VERSION_MINOR,
             AGENTSMD_VERSION_PATCH);
    CHECK(strcmp(parts, agentsmd_version()) == 0);
    CHECK(strcmp(AGENTSMD_PART_ID, "agentsmd") == 0);
    CHECK(strcmp(AGENTSMD_DEFAULT_NAME, "AGENTS.md") == 0);
    CHECK(AGENTSMD_DEFAULT_MAX_BYTES == 1u << 20);
}

/* ---- A custom file system over a real directory, for the golden rendering. ---- */

struct dirfs {
    const char *dir;
    int opens, closes, releases;
};

/* The OS path of FS name `name` (`.` is the directory itself), newly allocated. */
static char *dirfs_path(const struct dirfs *fs, const uint8_t *name, size_t name_len) {
    size_t dir_len = strlen(fs->dir);
    char *path = malloc(dir_len + 1 + name_len + 1);
    CHECK(path != NULL);
    memcpy(path, fs->dir, dir_len);
    path[dir_len] = '/';
    memcpy(path + dir_len + 1, name, name_len);
    path[dir_len + 1 + name_len] = '\0';
    return path;
}

/* NOT_FOUND for ENOENT, otherwise ERROR with a message. */
static uint32_t dirfs_failure(int errnum, const char *op, agentsmd_message *message) {
    if (errnum == ENOENT) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    SET_MESSAGE(message, "%s: %s", op, strerror(errnum));
    return AGENTSMD_CALLBACK_STATUS_ERROR;
}

static uint32_t dirfs_list(void *userdata, const uint8_t *dir, size_t dir_len,
                           agentsmd_listing *listing, agentsmd_message *message) {
    char *path = dirfs_path(userdata, dir, dir_len);
    DIR *d = opendir(path);
    int errnum = errno;
    free(path);
    if (d == NULL) {
        return dirfs_failure(errnum, "opendir", message);
    }
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        /* `.` and `..` are pushed too: the library accepts them and they never match. */
        CHECK(agentsmd_listing_push(listing, (const uint8_t *)entry->d_name,
                                    strlen(entry->d_name)) == AGENTSMD_STATUS_OK);
    }
    closedir(d);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t dirfs_stat(void *userdata, const uint8_t *name, size_t name_len, uint32_t *kind_out,
                           uint64_t *size_out, agentsmd_message *message) {
    char *path = dirfs_path(userdata, name, name_len);
    struct stat st;
    int rc = stat(path, &st);
    int errnum = errno;
    free(path);
    if (rc != 0) {
        return dirfs_failure(errnum, "stat", message);
    }
    *kind_out = S_ISREG(st.st_mode)   ? AGENTSMD_ENTRY_KIND_FILE
                : S_ISDIR(st.st_mode) ? AGENTSMD_ENTRY_KIND_DIR
                                      : AGENTSMD_ENTRY_KIND_OTHER;
    *size_out = (uint64_t)st.st_size;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t dirfs_open(void *userdata, const uint8_t *name, size_t name_len, void **file_out,
                           agentsmd_message *message) {
    struct dirfs *fs = userdata;
    char *path = dirfs_path(fs, name, name_len);
    int fd = open(path, O_RDONLY);
    int errnum = errno;
    free(path);
    if (fd < 0) {
        return dirfs_failure(errnum, "open", message);
    }
    int *file = malloc(sizeof *file); /* freed by close: valgrind sees a close missed */
    CHECK(file != NULL);
    *file = fd;
    *file_out = file;
    fs->opens++;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t dirfs_read(void *userdata, void *file, uint8_t *buffer, size_t buffer_len,
                           size_t *read_out, agentsmd_message *message) {
    (void)userdata;
    ssize_t n;
    do {
        n = read(*(int *)file, buffer, buffer_len);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        SET_MESSAGE(message, "read: %s", strerror(errno));
        return AGENTSMD_CALLBACK_STATUS_ERROR;
    }
    *read_out = (size_t)n;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static void dirfs_close(void *userdata, void *file) {
    struct dirfs *fs = userdata;
    CHECK(close(*(int *)file) == 0);
    free(file);
    fs->closes++;
}

static void dirfs_release(void *userdata) {
    struct dirfs *fs = userdata;
    fs->releases++;
}

static void test_golden(void) {
    struct dirfs state = {tree, 0, 0, 0};
    agentsmd_fs fs = {&state, dirfs_list, dirfs_stat, dirfs_open, dirfs_read, dirfs_close,
                      dirfs_release};
    agentsmd_options *options = agentsmd_options_new();
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_fs(options, &fs, &err), AGENTSMD_STATUS_OK, err);
    agentsmd_bytes names[] = {str(OVERRIDE_NAMES[0]), str(OVERRIDE_NAMES[1])};
    CHECK_STATUS(agentsmd_options_set_names(options, names, 2, &err), AGENTSMD_STATUS_OK, err);

    agentsmd_result *result = chain_at("a/b/c&\"d\"/new.txt", options);
    CHECK(agentsmd_result_file_count(result) == 3);
    agentsmd_file file;
    CHECK_STATUS(agentsmd_result_file(result, 0, &file, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(file.path, "AGENTS.md"); /* FS names, not OS paths */
    CHECK_STATUS(agentsmd_result_file(result, 2, &file, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(file.path, LEAF);
    CHECK(agentsmd_result_omitted_count(result) == 1);
    agentsmd_omitted omitted;
    CHECK_STATUS(agentsmd_result_omitted(result, 0, &omitted, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(omitted.path, "a/AGENTS.md");
    CHECK_BYTES(omitted.by, "a/AGENTS.override.md");
    CHECK(omitted.reason == AGENTSMD_REASON_SHADOWED);
    CHECK(omitted.size == size_of(at("a/AGENTS.md")));

    agentsmd_buffer *buffer = NULL;
    CHECK_STATUS(agentsmd_result_render(result, &buffer, &err), AGENTSMD_STATUS_OK, err);
    size_t golden_len;
    uint8_t *golden = read_all(at("../golden/render.txt"), &golden_len);
    check_buffer(buffer, golden, golden_len);
    free(golden);
    agentsmd_buffer_free(buffer);
    agentsmd_result_free(result);

    CHECK(state.opens == 3 && state.closes == 3);
    CHECK(state.releases == 0);
    agentsmd_options_free(options);
    CHECK(state.releases == 1);
    CHECK(err == NULL);
}

int main(int argc, char **argv) {
    CHECK(argc >= 2);
    repo = argv[1];
    FORMAT(tree, sizeof tree, "%s/testdata/tree", repo);
    FORMAT(start, sizeof start, "%s/a/b/c&\"d\"/new.txt", tree);

    test_version();
    test_default_names();
    test_override_names();
    test_extra();
    test_budget();
    test_rendered_budget();
    test_render();
    test_golden();
    printf("tree: ok\n");
    return 0;
}
