/*
 * The walker through the C API: it answers what agentsmd_chain answers, before and after the
 * tree changes (an edit, a new override name, a deleted file, a renamed directory), from
 * several threads at once; it owns a copy of its options; it holds a custom file system until
 * both the options and the walker are freed; and its functions refuse NULL where a pointer is
 * required.
 *
 * Usage: walker REPO_DIR TEMP_DIR
 */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "scratch.h"

#define PATH_CAPACITY 4096


/* The chain of `path` from `walker`, checked to equal agentsmd_chain's with `options`, and its
 * contents joined with '|' into `out`. */
static void walk(const agentsmd_walker *walker, const agentsmd_options *options,
                 const char *path, char *out, size_t capacity) {
    agentsmd_result *got = NULL, *expected = NULL;
    agentsmd_error *error = NULL;
    CHECK_STATUS(agentsmd_walker_chain(walker, (const uint8_t *)path, strlen(path), &got, &error),
                 AGENTSMD_STATUS_OK, error);
    CHECK_STATUS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &expected, &error),
                 AGENTSMD_STATUS_OK, error);
    size_t count = agentsmd_result_file_count(got);
    CHECK(count == agentsmd_result_file_count(expected));
    out[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        agentsmd_file a, b;
        CHECK_STATUS(agentsmd_result_file(got, i, &a, &error), AGENTSMD_STATUS_OK, error);
        CHECK_STATUS(agentsmd_result_file(expected, i, &b, &error), AGENTSMD_STATUS_OK, error);
        CHECK(a.path.len == b.path.len && memcmp(a.path.ptr, b.path.ptr, a.path.len) == 0);
        CHECK(a.content.len == b.content.len &&
              memcmp(a.content.ptr, b.content.ptr, a.content.len) == 0);
        size_t used = strlen(out);
        FORMAT(out + used, capacity - used, "%s%.*s", i ? "|" : "", (int)a.content.len,
               (const char *)a.content.ptr);
    }
    CHECK(agentsmd_result_omitted_count(got) == agentsmd_result_omitted_count(expected));
    for (size_t i = 0; i < agentsmd_result_omitted_count(got); i++) {
        agentsmd_omitted a, b;
        CHECK_STATUS(agentsmd_result_omitted(got, i, &a, &error), AGENTSMD_STATUS_OK, error);
        CHECK_STATUS(agentsmd_result_omitted(expected, i, &b, &error), AGENTSMD_STATUS_OK, error);
        CHECK(a.size == b.size && a.reason == b.reason);
        CHECK(a.path.len == b.path.len && memcmp(a.path.ptr, b.path.ptr, a.path.len) == 0);
    }
    agentsmd_result_free(got);
    agentsmd_result_free(expected);
}

static agentsmd_options *tree_options(void) {
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    agentsmd_bytes names[] = {str("AGENTS.override.md"), str("AGENTS.md")};
    agentsmd_error *error = NULL;
    CHECK_STATUS(agentsmd_options_set_names(options, names, 2, &error), AGENTSMD_STATUS_OK, error);
    CHECK_STATUS(agentsmd_options_set_root(options, (const uint8_t *)scratch, strlen(scratch), &error),
                 AGENTSMD_STATUS_OK, error);
    return options;
}

static void sees_every_change(void) {
    CHECK(mkdir(scratch, 0755) == 0);
    make_dir("a");
    make_dir("a/b");
    write_file("AGENTS.md", "root\n");
    write_file("a/AGENTS.md", "a\n");
    const char *path = at("a/b/main.c");

    agentsmd_options *options = tree_options();
    agentsmd_walker *walker = NULL;
    agentsmd_error *error = NULL;
    CHECK_STATUS(agentsmd_walker_new(options, &walker, &error), AGENTSMD_STATUS_OK, error);
    CHECK(walker != NULL);
    /* The walker keeps its own copy: these options may go, and others compare. */
    agentsmd_options_free(options);
    options = tree_options();

    char seen[256];
    walk(walker, options, path, seen, sizeof seen);
    CHECK(strcmp(seen, "root\n|a\n") == 0);

    write_file("a/AGENTS.md", "a, edited\n");
    walk(walker, options, path, seen, sizeof seen);
    CHECK(strcmp(seen, "root\n|a, edited\n") == 0);

    write_file("a/AGENTS.override.md", "override\n");
    walk(walker, options, path, seen, sizeof seen);
    CHECK(strcmp(seen, "root\n|override\n") == 0);

    CHECK(unlink(at("a/AGENTS.override.md")) == 0);
    CHECK(unlink(at("a/AGENTS.md")) == 0);
    walk(walker, options, path, seen, sizeof seen);
    CHECK(strcmp(seen, "root\n") == 0);

    CHECK(rename(at("a"), at("gone")) == 0);
    make_dir("a");
    write_file("a/AGENTS.md", "a new a\n");
    walk(walker, options, path, seen, sizeof seen);
    CHECK(strcmp(seen, "root\n|a new a\n") == 0);

    agentsmd_walker_free(walker);
    agentsmd_options_free(options);
}

struct worker {
    const agentsmd_walker *walker;
    const char *path;
    int ok;
};

static void *work(void *arg) {
    struct worker *worker = arg;
    worker->ok = 1;
    for (int i = 0; i < 50; i++) {
        agentsmd_result *result = NULL;
        if (agentsmd_walker_chain(worker->walker, (const uint8_t *)worker->path,
                                  strlen(worker->path), &result, NULL) != AGENTSMD_STATUS_OK ||
            agentsmd_result_file_count(result) != 2) {
            worker->ok = 0;
        }
        agentsmd_result_free(result);
    }
    return NULL;
}

static void threads_share_a_walker(void) {
    agentsmd_options *options = tree_options();
    agentsmd_walker *walker = NULL;
    agentsmd_error *error = NULL;
    CHECK_STATUS(agentsmd_walker_new(options, &walker, &error), AGENTSMD_STATUS_OK, error);
    agentsmd_options_free(options);
    pthread_t threads[4];
    struct worker workers[4];
    for (int i = 0; i < 4; i++) {
        workers[i].walker = walker;
        workers[i].path = i % 2 ? at("a/b/main.c") : at("a/new.c");
        CHECK(pthread_create(&threads[i], NULL, work, &workers[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        CHECK(pthread_join(threads[i], NULL) == 0);
        CHECK(workers[i].ok);
    }
    agentsmd_walker_free(walker);
}

/* A custom file system of one file, AGENTS.md, in its root; `release` counts its calls. */
static const char RULES[] = "from memory\n";
static int released;

static int is(const uint8_t *name, size_t len, const char *s) {
    return bytes_equal(name, len, s);
}

static uint32_t mem_list(void *ud, const uint8_t *dir, size_t dir_len, agentsmd_listing *listing,
                         char *message, size_t capacity) {
    (void)ud, (void)message, (void)capacity;
    if (!is(dir, dir_len, ".")) return AGENTSMD_FS_STATUS_NOT_FOUND;
    agentsmd_listing_push(listing, (const uint8_t *)"AGENTS.md", 9);
    return AGENTSMD_FS_STATUS_OK;
}

static uint32_t mem_stat(void *ud, const uint8_t *name, size_t len, uint32_t *kind,
                         uint64_t *size, char *message, size_t capacity) {
    (void)ud, (void)message, (void)capacity;
    if (is(name, len, ".")) {
        *kind = AGENTSMD_KIND_DIR;
        *size = 0;
        return AGENTSMD_FS_STATUS_OK;
    }
    if (is(name, len, "AGENTS.md")) {
        *kind = AGENTSMD_KIND_FILE;
        *size = sizeof RULES - 1;
        return AGENTSMD_FS_STATUS_OK;
    }
    return AGENTSMD_FS_STATUS_NOT_FOUND;
}

static uint32_t mem_open(void *ud, const uint8_t *name, size_t len, void **file, char *message,
                         size_t capacity) {
    (void)ud, (void)message, (void)capacity;
    if (!is(name, len, "AGENTS.md")) return AGENTSMD_FS_STATUS_NOT_FOUND;
    size_t *offset = malloc(sizeof *offset);
    CHECK(offset != NULL);
    *offset = 0;
    *file = offset;
    return AGENTSMD_FS_STATUS_OK;
}

static uint32_t mem_read(void *ud, void *file, uint8_t *buffer, size_t buffer_len, size_t *read,
                         char *message, size_t capacity) {
    (void)ud, (void)message, (void)capacity;
    size_t *offset = file, left = sizeof RULES - 1 - *offset;
    *read = left < buffer_len ? left : buffer_len;
    memcpy(buffer, RULES + *offset, *read);
    *offset += *read;
    return AGENTSMD_FS_STATUS_OK;
}

static void mem_close(void *ud, void *file) {
    (void)ud;
    free(file);
}

static void mem_release(void *ud) {
    (void)ud;
    released++;
}

static void custom_file_system_is_held_until_both_are_freed(void) {
    agentsmd_fs fs = {.userdata = NULL, .list = mem_list, .stat = mem_stat, .open = mem_open,
                      .read = mem_read, .close = mem_close, .release = mem_release};
    agentsmd_options *options = agentsmd_options_new();
    agentsmd_error *error = NULL;
    CHECK_STATUS(agentsmd_options_set_fs(options, &fs, &error), AGENTSMD_STATUS_OK, error);
    agentsmd_walker *walker = NULL;
    CHECK_STATUS(agentsmd_walker_new(options, &walker, &error), AGENTSMD_STATUS_OK, error);
    agentsmd_options_free(options);
    CHECK(released == 0);

    agentsmd_result *result = NULL;
    CHECK_STATUS(agentsmd_walker_chain(walker, (const uint8_t *)"src/lib.c", 9, &result, &error),
                 AGENTSMD_STATUS_OK, error);
    agentsmd_file file;
    CHECK_STATUS(agentsmd_result_file(result, 0, &file, &error), AGENTSMD_STATUS_OK, error);
    CHECK_BYTES(file.path, "AGENTS.md");
    CHECK_BYTES(file.content, RULES);
    agentsmd_result_free(result);

    agentsmd_walker_free(walker);
    CHECK(released == 1);
}

static void refuses_null(void) {
    agentsmd_error *error = NULL;
    CHECK_STATUS(agentsmd_walker_new(NULL, NULL, &error), AGENTSMD_STATUS_INVALID_ARGUMENT, error);
    CHECK_CONTAINS(agentsmd_error_message(error), "walker_out");
    agentsmd_error_free(error);

    agentsmd_result *result = NULL;
    error = NULL;
    CHECK_STATUS(agentsmd_walker_chain(NULL, (const uint8_t *)"/", 1, &result, &error),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, error);
    CHECK(result == NULL);
    agentsmd_error_free(error);

    /* NULL options are the defaults: root `/`, AGENTS.md. */
    agentsmd_walker *walker = NULL;
    error = NULL;
    CHECK_STATUS(agentsmd_walker_new(NULL, &walker, &error), AGENTSMD_STATUS_OK, error);
    error = NULL;
    CHECK_STATUS(agentsmd_walker_chain(walker, NULL, 3, &result, &error),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, error);
    agentsmd_error_free(error);
    error = NULL;
    CHECK_STATUS(agentsmd_walker_chain(walker, (const uint8_t *)at(""), strlen(at("")), NULL, &error),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, error);
    agentsmd_error_free(error);
    /* A relative path and one holding NUL: made absolute, and refused, as agentsmd_chain does. */
    error = NULL;
    CHECK_STATUS(agentsmd_walker_chain(walker, (const uint8_t *)"a\0b", 3, &result, &error),
                 AGENTSMD_STATUS_INVALID_ARGUMENT, error);
    agentsmd_error_free(error);
    agentsmd_walker_free(walker);
    agentsmd_walker_free(NULL);
}

int main(int argc, char **argv) {
    CHECK(argc == 3);
    FORMAT(scratch, sizeof scratch, "%s/root", argv[2]);
    sees_every_change();
    threads_share_a_walker();
    custom_file_system_is_held_until_both_are_freed();
    refuses_null();
    printf("walker: ok\n");
    return 0;
}
