/*
 * Every error kind through the C API, and every function given NULL where it needs a pointer:
 * a status and an error object, never a crash, and no output written on failure. And the one
 * refusal that is no error: with confinement on, a symbolic link out of the root is reported
 * as AGENTSMD_REASON_ESCAPES and nothing is read through it.
 *
 * Usage: errors REPO_DIR TEMP_DIR (a fresh directory the test writes its files in)
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "agentsmd_test_hooks.h"
#include "calls.h"
#include "scratch.h"

#define PATH_CAPACITY 4096
#define TEN "0123456789"
#define HUNDRED TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN


static agentsmd_options *options_rooted(const char *rel) {
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    const char *root = at(rel);
    SUCCEEDS(agentsmd_options_set_root(options, (const uint8_t *)root, strlen(root), &err));
    return options;
}

/* The chain at `<scratch>/<rel>`; its status, with the result freed and the error in `err`. */
static agentsmd_status chain_at(const char *rel, const agentsmd_options *options) {
    agentsmd_error_free(err);
    err = NULL;
    agentsmd_result *result = SENTINEL;
    const char *path = at(rel);
    agentsmd_status status =
        agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err);
    if (status == AGENTSMD_STATUS_OK) {
        CHECK(err == NULL && result != SENTINEL && result != NULL);
        agentsmd_result_free(result);
    } else {
        CHECK(result == SENTINEL); /* untouched */
        CHECK(err != NULL && agentsmd_error_status(err) == status);
        /* The same failure without an error object. */
        CHECK(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, NULL) ==
              status);
        CHECK(result == SENTINEL);
    }
    return status;
}

static void test_invalid_argument(void) {
    agentsmd_options *options = options_rooted("big");
    agentsmd_bytes x_md = str("X.md");
    SUCCEEDS(agentsmd_options_set_names(options, &x_md, 1, &err));
    CHECK(chain_at("big/x", options) == AGENTSMD_STATUS_OK);

    /* A name with an empty element (SPEC.md §9); the options stay as they were. */
    agentsmd_bytes bad[] = {str("AGENTS.md"), str("a//b")};
    INVALID(agentsmd_options_set_names(options, bad, 2, &err));
    CHECK_CONTAINS(agentsmd_error_message(err), "a//b");
    CHECK(agentsmd_error_os_code(err) == 0);
    const char *const others[] = {"", ".", ".."};
    for (size_t i = 0; i < 3; i++) {
        bad[1] = str(others[i]);
        INVALID(agentsmd_options_set_names(options, bad, 2, &err));
    }
    bad[1].ptr = (const uint8_t *)"a\0b";
    bad[1].len = 3;
    INVALID(agentsmd_options_set_names(options, bad, 2, &err));
    agentsmd_result *result = NULL;
    const char *path = at("big/x");
    SUCCEEDS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err));
    CHECK(agentsmd_result_file_count(result) == 0); /* X.md still, not AGENTS.md */
    agentsmd_result_free(result);
    agentsmd_options_free(options);

    /* A NUL byte, which no OS path and no FS name holds, in a root or an extra path: refused
     * when set, as a bad name is, and the options stay as they were. */
    options = options_rooted("big");
    INVALID(agentsmd_options_set_root(options, (const uint8_t *)"/a\0b", 4, &err));
    CHECK_CONTAINS(agentsmd_error_message(err), "NUL");
    agentsmd_bytes extras[] = {str(at("big/AGENTS.md")), {(const uint8_t *)"/x\0y", 4}};
    INVALID(agentsmd_options_set_extra(options, extras, 2, &err));
    CHECK_CONTAINS(agentsmd_error_message(err), "NUL");
    path = at("big/x");
    SUCCEEDS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err));
    CHECK(agentsmd_result_file_count(result) == 1); /* big/AGENTS.md alone: no extra */
    agentsmd_result_free(result);
    agentsmd_options_free(options);

    /* A path outside the root. */
    options = options_rooted("sub");
    CHECK(chain_at("other/x", options) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK_CONTAINS(agentsmd_error_message(err), "outside");
    CHECK_CONTAINS(agentsmd_error_message(err), at("other/x"));
    CHECK(chain_at("subx", options) == AGENTSMD_STATUS_INVALID_ARGUMENT);

    /* An extra path that is not a regular file. */
    agentsmd_bytes extra = str(at("sub"));
    SUCCEEDS(agentsmd_options_set_extra(options, &extra, 1, &err));
    CHECK(chain_at("sub/x", options) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK_CONTAINS(agentsmd_error_message(err), at("sub"));
    agentsmd_options_free(options);
}

static void test_too_large(void) {
    agentsmd_options *options = options_rooted("big");
    SUCCEEDS(agentsmd_options_set_max_bytes(options, 10, &err));
    CHECK(chain_at("big/x", options) == AGENTSMD_STATUS_TOO_LARGE);
    CHECK_CONTAINS(agentsmd_error_message(err), at("big/AGENTS.md"));
    CHECK(agentsmd_error_os_code(err) == 0);
    SUCCEEDS(agentsmd_options_set_max_bytes(options, 99, &err));
    CHECK(chain_at("big/x", options) == AGENTSMD_STATUS_TOO_LARGE);
    SUCCEEDS(agentsmd_options_set_max_bytes(options, 100, &err));
    CHECK(chain_at("big/x", options) == AGENTSMD_STATUS_OK);
    agentsmd_options_free(options);

    /* An extra file is bounded too. */
    options = options_rooted("sub");
    agentsmd_bytes extra = str(at("big/AGENTS.md"));
    SUCCEEDS(agentsmd_options_set_extra(options, &extra, 1, &err));
    SUCCEEDS(agentsmd_options_set_max_bytes(options, 10, &err));
    CHECK(chain_at("sub/x", options) == AGENTSMD_STATUS_TOO_LARGE);
    CHECK_CONTAINS(agentsmd_error_message(err), at("big/AGENTS.md"));
    agentsmd_options_free(options);
}

static void test_io(void) {
    /* A parent component that is a regular file: ENOTDIR, which is no "not found". */
    agentsmd_options *options = options_rooted("");
    CHECK(chain_at("file/x", options) == AGENTSMD_STATUS_IO);
    CHECK(agentsmd_error_os_code(err) == ENOTDIR);
    CHECK_CONTAINS(agentsmd_error_message(err), at("file/x"));
    CHECK(agentsmd_error_path(err).len > 0 && agentsmd_error_line(err) == 0);

    /* The same for an extra path. */
    agentsmd_bytes extra = str(at("file/x"));
    SUCCEEDS(agentsmd_options_set_extra(options, &extra, 1, &err));
    CHECK(chain_at("sub", options) == AGENTSMD_STATUS_IO);
    CHECK(agentsmd_error_os_code(err) == ENOTDIR);
    CHECK_CONTAINS(agentsmd_error_message(err), at("file/x"));
    agentsmd_options_free(options);
}

/* A file system whose every callback fails. */
static int released;

static uint32_t fail_list(void *userdata, const uint8_t *dir, size_t dir_len,
                          agentsmd_listing *listing, agentsmd_message *message) {
    (void)userdata, (void)dir, (void)dir_len, (void)listing;
    SET_MESSAGE(message, "boom");
    return AGENTSMD_CALLBACK_STATUS_ERROR;
}

static uint32_t fail_stat(void *userdata, const uint8_t *name, size_t name_len, uint32_t *kind_out,
                          uint64_t *size_out, agentsmd_message *message) {
    (void)userdata, (void)name, (void)name_len, (void)kind_out, (void)size_out;
    (void)message;
    return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
}

static uint32_t fail_open(void *userdata, const uint8_t *name, size_t name_len, void **file_out,
                          agentsmd_message *message) {
    (void)userdata, (void)name, (void)name_len, (void)file_out, (void)message;
    return AGENTSMD_CALLBACK_STATUS_ERROR;
}

static uint32_t fail_read(void *userdata, void *file, uint8_t *buffer, size_t buffer_len,
                          size_t *read_out, agentsmd_message *message) {
    (void)userdata, (void)file, (void)buffer, (void)buffer_len, (void)read_out, (void)message;
    return AGENTSMD_CALLBACK_STATUS_ERROR;
}

static void release(void *userdata) {
    (void)userdata;
    released++;
}

static const agentsmd_fs FAILING = {NULL, fail_list, fail_stat, fail_open, fail_read, NULL,
                                    release};

static void test_fs(void) {
    agentsmd_options *options = agentsmd_options_new();
    SUCCEEDS(agentsmd_options_set_fs(options, &FAILING, &err));
    agentsmd_result *result = SENTINEL;
    FAILS(agentsmd_chain((const uint8_t *)"a/b", 3, options, &result, &err), AGENTSMD_STATUS_FS);
    CHECK(result == SENTINEL);
    CHECK_CONTAINS(agentsmd_error_message(err), "boom");
    CHECK(agentsmd_error_os_code(err) == 0);
    CHECK(agentsmd_chain((const uint8_t *)"a/b", 3, options, &result, NULL) == AGENTSMD_STATUS_FS);
    CHECK(result == SENTINEL);
    agentsmd_options_free(options);
    CHECK(released == 1);
}

static void test_panic(void) {
    FAILS(agentsmd_test_panic(&err), AGENTSMD_STATUS_PANIC);
    CHECK_CONTAINS(agentsmd_error_message(err), "panic");
    CHECK(agentsmd_error_os_code(err) == 0);
    CHECK(agentsmd_test_panic(NULL) == AGENTSMD_STATUS_PANIC);
    /* The process is alive and the library still works. */
    agentsmd_options *options = options_rooted("big");
    CHECK(chain_at("big/x", options) == AGENTSMD_STATUS_OK);
    agentsmd_options_free(options);
}

static void test_null_arguments(void) {
    agentsmd_options *options = options_rooted("big");
    const char *path = at("big/x");
    const uint8_t *p = (const uint8_t *)path;
    size_t n = strlen(path);
    agentsmd_result *result = NULL;
    SUCCEEDS(agentsmd_chain(p, n, options, &result, &err));
    CHECK(agentsmd_result_file_count(result) == 1);
    CHECK(agentsmd_result_omitted_count(result) == 0);

    /* agentsmd_chain */
    agentsmd_result *result_out = SENTINEL;
    INVALID(agentsmd_chain(NULL, n, options, &result_out, &err));
    INVALID(agentsmd_chain(p, n, options, NULL, &err));
    CHECK(agentsmd_chain(NULL, n, options, &result_out, NULL) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(agentsmd_chain(p, n, options, NULL, NULL) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(result_out == SENTINEL);

    /* The accessors of a result. */
    CHECK(agentsmd_result_file_count(NULL) == 0);
    CHECK(agentsmd_result_omitted_count(NULL) == 0);
    agentsmd_file file, file_before;
    memset(&file, 0xa5, sizeof file);
    memcpy(&file_before, &file, sizeof file);
    INVALID(agentsmd_result_file(NULL, 0, &file, &err));
    INVALID(agentsmd_result_file(result, 0, NULL, &err));
    INVALID(agentsmd_result_file(result, 1, &file, &err)); /* index out of range */
    CHECK_CONTAINS(agentsmd_error_message(err), "1");
    INVALID(agentsmd_result_file(result, SIZE_MAX, &file, &err));
    CHECK(agentsmd_result_file(result, 1, &file, NULL) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(memcmp(&file, &file_before, sizeof file) == 0);
    SUCCEEDS(agentsmd_result_file(result, 0, &file, &err));
    CHECK_BYTES(file.path, at("big/AGENTS.md"));

    agentsmd_omitted omitted, omitted_before;
    memset(&omitted, 0xa5, sizeof omitted);
    memcpy(&omitted_before, &omitted, sizeof omitted); /* padding included */
    INVALID(agentsmd_result_omitted(NULL, 0, &omitted, &err));
    INVALID(agentsmd_result_omitted(result, 0, NULL, &err));
    INVALID(agentsmd_result_omitted(result, 0, &omitted, &err)); /* none was omitted */
    INVALID(agentsmd_result_omitted(result, SIZE_MAX, &omitted, &err));
    CHECK(memcmp(&omitted, &omitted_before, sizeof omitted) == 0);

    agentsmd_buffer *buffer = SENTINEL;
    INVALID(agentsmd_result_render(NULL, &buffer, &err));
    INVALID(agentsmd_result_render(result, NULL, &err));
    CHECK(agentsmd_result_render(NULL, &buffer, NULL) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(buffer == SENTINEL);

    /* The accessors of an error. */
    CHECK(agentsmd_error_status(NULL) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(agentsmd_error_message(NULL) != NULL);
    CHECK(strcmp(agentsmd_error_message(NULL), "") == 0);
    CHECK(agentsmd_error_os_code(NULL) == 0);
    CHECK(agentsmd_error_path(NULL).ptr == NULL && agentsmd_error_path(NULL).len == 0);
    CHECK(agentsmd_error_line(NULL) == 0);

    /* A listing (the rest is in memfs.c, from within a callback). */
    CHECK(agentsmd_listing_push(NULL, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);

    /* The setters, on a handle of their own. */
    agentsmd_options *scratch = agentsmd_options_new();
    CHECK(scratch != NULL);
    agentsmd_bytes name = str("AGENTS.md");
    agentsmd_bytes null_name = {NULL, 2};
    INVALID(agentsmd_options_set_names(NULL, &name, 1, &err));
    INVALID(agentsmd_options_set_names(scratch, NULL, 1, &err));
    INVALID(agentsmd_options_set_names(scratch, &null_name, 1, &err));
    CHECK(agentsmd_options_set_names(NULL, &name, 1, NULL) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    SUCCEEDS(agentsmd_options_set_names(scratch, NULL, 0, &err));
    INVALID(agentsmd_options_set_root(NULL, (const uint8_t *)"/", 1, &err));
    INVALID(agentsmd_options_set_root(scratch, NULL, 1, &err));
    SUCCEEDS(agentsmd_options_set_root(scratch, NULL, 0, &err));
    INVALID(agentsmd_options_set_extra(NULL, &name, 1, &err));
    INVALID(agentsmd_options_set_extra(scratch, NULL, 1, &err));
    INVALID(agentsmd_options_set_extra(scratch, &null_name, 1, &err));
    SUCCEEDS(agentsmd_options_set_extra(scratch, NULL, 0, &err));
    INVALID(agentsmd_options_set_max_bytes(NULL, 1, &err));
    INVALID(agentsmd_options_set_budget(NULL, 1, &err));
    INVALID(agentsmd_options_set_rendered_budget(NULL, 1, &err));
    INVALID(agentsmd_options_set_confine(NULL, 1, &err));
    INVALID(agentsmd_options_set_confine(scratch, 2, &err)); /* reserved */
    CHECK_CONTAINS(agentsmd_error_message(err), "2");
    INVALID(agentsmd_options_set_confine(scratch, UINT32_MAX, &err));
    CHECK(agentsmd_options_set_budget(NULL, 1, NULL) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    INVALID(agentsmd_options_set_fs(NULL, &FAILING, &err));
    agentsmd_fs no_list = FAILING;
    no_list.list = NULL;
    INVALID(agentsmd_options_set_fs(scratch, &no_list, &err));
    CHECK(released == 1); /* nothing kept, nothing released (1 is test_fs's) */
    SUCCEEDS(agentsmd_options_set_fs(scratch, NULL, &err));
    SUCCEEDS(agentsmd_options_set_max_bytes(scratch, 1, &err));
    SUCCEEDS(agentsmd_options_set_budget(scratch, 1, &err));
    SUCCEEDS(agentsmd_options_set_rendered_budget(scratch, 1, &err));
    SUCCEEDS(agentsmd_options_set_confine(scratch, 1, &err));
    SUCCEEDS(agentsmd_options_set_confine(scratch, 0, &err));
    agentsmd_options_free(scratch);

    /* agentsmd_render */
    agentsmd_file files[2] = {{str("p"), str("c")}, {str("q"), str("d")}};
    buffer = SENTINEL;
    INVALID(agentsmd_render(NULL, 1, &buffer, &err));
    INVALID(agentsmd_render(files, 2, NULL, &err));
    files[1].path.ptr = NULL; /* a NULL pointer with a length, after a good pair */
    INVALID(agentsmd_render(files, 2, &buffer, &err));
    files[1].path = str("q");
    files[1].content.ptr = NULL;
    INVALID(agentsmd_render(files, 2, &buffer, &err));
    CHECK(agentsmd_render(files, 2, &buffer, NULL) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(buffer == SENTINEL);

    /* The accessors of a buffer. */
    CHECK(agentsmd_buffer_data(NULL) == NULL);
    CHECK(agentsmd_buffer_len(NULL) == 0);

    /* Every free function accepts NULL. */
    agentsmd_result_free(NULL);
    agentsmd_error_free(NULL);
    agentsmd_options_free(NULL);
    agentsmd_buffer_free(NULL);

    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

/* What a confined chain must never read: the content of every file outside the root. */
#define SECRET "SECRET-outside-the-root\n"

/* Whether any file of `result` holds the secret. */
static int holds_secret(const agentsmd_result *result) {
    for (size_t i = 0; i < agentsmd_result_file_count(result); i++) {
        agentsmd_file file;
        SUCCEEDS(agentsmd_result_file(result, i, &file, &err));
        for (size_t from = 0; from + strlen(SECRET) <= file.content.len; from++) {
            if (memcmp(file.content.ptr + from, SECRET, strlen(SECRET)) == 0) {
                return 1;
            }
        }
    }
    return 0;
}

/* The chain of `<scratch>/confine/root/<rel>` rooted at `<scratch>/confine/root`, for `options`. */
static agentsmd_result *confined_chain(const char *rel, const agentsmd_options *options) {
    char path[PATH_CAPACITY];
    FORMAT(path, sizeof path, "%s/%s", at("confine/root"), rel);
    agentsmd_result *result = NULL;
    SUCCEEDS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err));
    return result;
}

/* The omitted entry `index` of `result` is `<scratch>/confine/root/<rel>`, escaping, of size 0. */
static void check_escapes(const agentsmd_result *result, size_t index, const char *rel) {
    char path[PATH_CAPACITY];
    FORMAT(path, sizeof path, "%s/%s", at("confine/root"), rel);
    agentsmd_omitted omitted;
    SUCCEEDS(agentsmd_result_omitted(result, index, &omitted, &err));
    CHECK(omitted.reason == AGENTSMD_REASON_ESCAPES);
    CHECK(omitted.size == 0);
    CHECK_BYTES(omitted.path, path);
    CHECK(omitted.by.len == 0);
}

static void test_confine(void) {
    /* confine/outside holds the secret; confine/root links to it as a file (AGENTS.md of
     * "file") and as a directory ("dir"), and to a file of its own ("inside"). */
    make_dir("confine");
    make_dir("confine/outside");
    make_dir("confine/root");
    make_dir("confine/root/file");
    make_dir("confine/root/inside");
    write_file("confine/outside/AGENTS.md", SECRET);
    write_file("confine/root/AGENTS.md", "root\n");
    write_file("confine/root/rules.md", "inside rules\n");
    CHECK(symlink("../../outside/AGENTS.md", at("confine/root/file/AGENTS.md")) == 0);
    CHECK(symlink("../outside", at("confine/root/dir")) == 0);
    CHECK(symlink("../rules.md", at("confine/root/inside/AGENTS.md")) == 0);

    agentsmd_options *options = options_rooted("confine/root");
    /* Off (the default): the links are followed, out of the root too. */
    agentsmd_result *result = confined_chain("file/x", options);
    CHECK(holds_secret(result));
    agentsmd_result_free(result);

    SUCCEEDS(agentsmd_options_set_confine(options, 1, &err));
    /* Valgrind before 3.22 does not know openat2, which confinement needs (Linux 5.6): there
     * the confined chain is an IO error saying so, and the ASan run of this program
     * (tests/hardening/sanitizers.rs), not under valgrind, checks the rest. */
    if (getenv("AGENTSMD_UNDER_VALGRIND") != NULL) {
        char path[PATH_CAPACITY];
        FORMAT(path, sizeof path, "%s/file/x", at("confine/root"));
        agentsmd_result *probe = NULL;
        agentsmd_error *probe_err = NULL;
        if (agentsmd_chain((const uint8_t *)path, strlen(path), options, &probe, &probe_err) !=
            AGENTSMD_STATUS_OK) {
            CHECK(agentsmd_error_status(probe_err) == AGENTSMD_STATUS_IO);
            CHECK_CONTAINS(agentsmd_error_message(probe_err), "openat2 is not available");
            agentsmd_error_free(probe_err);
            agentsmd_options_free(options);
            return;
        }
        agentsmd_result_free(probe);
    }
    /* A file's link out: reported, and root's own file still applies. */
    result = confined_chain("file/x", options);
    CHECK(!holds_secret(result));
    CHECK(agentsmd_result_file_count(result) == 1);
    CHECK(agentsmd_result_omitted_count(result) == 1);
    check_escapes(result, 0, "file/AGENTS.md");
    agentsmd_result_free(result);

    /* A directory's link out: reported; nothing below it is looked into. */
    result = confined_chain("dir/x", options);
    CHECK(!holds_secret(result));
    CHECK(agentsmd_result_file_count(result) == 1);
    CHECK(agentsmd_result_omitted_count(result) == 1);
    check_escapes(result, 0, "dir");
    agentsmd_result_free(result);

    /* A link that stays inside: followed and read. */
    result = confined_chain("inside/x", options);
    CHECK(agentsmd_result_file_count(result) == 2);
    CHECK(agentsmd_result_omitted_count(result) == 0);
    agentsmd_file file;
    SUCCEEDS(agentsmd_result_file(result, 1, &file, &err));
    CHECK_BYTES(file.content, "inside rules\n");
    agentsmd_result_free(result);

    /* Back off: followed again. */
    SUCCEEDS(agentsmd_options_set_confine(options, 0, &err));
    result = confined_chain("dir/x", options);
    CHECK(holds_secret(result));
    agentsmd_result_free(result);
    agentsmd_options_free(options);
}

int main(int argc, char **argv) {
    CHECK(argc >= 3);
    FORMAT(scratch, sizeof scratch, "%s", argv[2]);
    make_dir("big");
    make_dir("sub");
    write_file("big/AGENTS.md", HUNDRED);
    write_file("file", "a regular file\n");

    test_invalid_argument();
    test_too_large();
    test_io();
    test_fs();
    test_panic();
    test_null_arguments();
    test_confine();

    agentsmd_error_free(err);
    printf("errors: ok\n");
    return 0;
}
