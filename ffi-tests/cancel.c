/*
 * Cancellation (SPEC.md §4, AGENTSMD_STATUS_ABORTED): a token requested from inside a callback,
 * and from another thread while that callback runs, stops the chain before its next question,
 * with an error naming the path it was at, no result, every file closed and nothing leaked
 * (valgrind, tests/ffi.rs); a token requested before the call stops it before its first
 * question; the options keep a reference of their own; NULL takes the token away.
 *
 * Usage: cancel REPO_DIR TEMP_DIR (neither is used: the file system is in memory)
 */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>

#include "check.h"
#include "nodes.h"

static const struct node NODES[] = {
    {".", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"AGENTS.md", AGENTSMD_ENTRY_KIND_FILE, "root\n"},
    {"a", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"a/AGENTS.md", AGENTSMD_ENTRY_KIND_FILE, "a\n"},
};
#define NODE_COUNT (sizeof NODES / sizeof NODES[0])

/* The file system's state: the token its `list` of `cancel_at` requests, and on which thread. */
struct memfs {
    agentsmd_cancel *cancel;
    const char *cancel_at;
    int on_other_thread;
    int calls, after_cancel, open_files, releases;
};

static void *request(void *cancel) {
    CHECK(agentsmd_cancel_request(cancel) == AGENTSMD_STATUS_OK);
    return NULL;
}

/* Counts a question, and one asked after the token was requested. */
static void asked(struct memfs *fs) {
    fs->calls++;
    fs->after_cancel += fs->cancel_at == NULL;
}

static uint32_t mem_list(void *userdata, const uint8_t *dir, size_t dir_len,
                         agentsmd_listing *listing, agentsmd_message *message) {
    struct memfs *fs = userdata;
    (void)message;
    asked(fs);
    nodes_list(NODES, NODE_COUNT, dir, dir_len, listing);
    if (fs->cancel_at != NULL && bytes_equal(dir, dir_len, fs->cancel_at)) {
        if (fs->on_other_thread) {
            pthread_t thread;
            CHECK(pthread_create(&thread, NULL, request, fs->cancel) == 0);
            CHECK(pthread_join(thread, NULL) == 0);
        } else {
            request(fs->cancel);
            request(fs->cancel); /* a second request changes nothing */
        }
        fs->cancel_at = NULL;
    }
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t mem_stat(void *userdata, const uint8_t *name, size_t name_len, uint32_t *kind_out,
                         uint64_t *size_out, agentsmd_message *message) {
    (void)message;
    asked(userdata);
    const struct node *node = node_find(NODES, NODE_COUNT, name, name_len);
    if (node == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *kind_out = node->kind;
    *size_out = node->content ? strlen(node->content) : 0;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t mem_open(void *userdata, const uint8_t *name, size_t name_len, void **file_out,
                         agentsmd_message *message) {
    struct memfs *fs = userdata;
    (void)message;
    asked(fs);
    const struct node *node = node_find(NODES, NODE_COUNT, name, name_len);
    if (node == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *file_out = handle_open(node);
    fs->open_files++;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t mem_read(void *userdata, void *file, uint8_t *out, size_t len, size_t *read_out,
                         agentsmd_message *message) {
    (void)userdata, (void)message;
    *read_out = handle_read(file, out, len);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static void mem_close(void *userdata, void *file) {
    struct memfs *fs = userdata;
    fs->open_files--;
    free(file);
}

static void mem_release(void *userdata) {
    struct memfs *fs = userdata;
    fs->releases++;
}

/* Options over `fs`, with `cancel` (which may be NULL). */
static agentsmd_options *options_with(struct memfs *fs, agentsmd_cancel *cancel) {
    agentsmd_fs callbacks = {fs, mem_list, mem_stat, mem_open, mem_read, mem_close, mem_release};
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    CHECK(agentsmd_options_set_fs(options, &callbacks, NULL) == AGENTSMD_STATUS_OK);
    CHECK(agentsmd_options_set_cancel(options, cancel, NULL) == AGENTSMD_STATUS_OK);
    return options;
}

/* The chain of "a" with `options`, which must fail ABORTED at `at`, writing no result. */
static void check_aborted(agentsmd_options *options, const char *at) {
    agentsmd_result *result = NULL;
    agentsmd_error *error = NULL;
    CHECK_STATUS(agentsmd_chain((const uint8_t *)"a", 1, options, &result, &error),
                 AGENTSMD_STATUS_ABORTED, error);
    CHECK(result == NULL);
    CHECK(agentsmd_error_status(error) == AGENTSMD_STATUS_ABORTED);
    char expected[64];
    snprintf(expected, sizeof expected, "cancelled at %s", at);
    CHECK(strcmp(agentsmd_error_message(error), expected) == 0);
    agentsmd_error_free(error);
}

/* The chain of "a" with `options`, which must find both files. */
static void check_whole(agentsmd_options *options) {
    agentsmd_result *result = NULL;
    CHECK(agentsmd_chain((const uint8_t *)"a", 1, options, &result, NULL) == AGENTSMD_STATUS_OK);
    CHECK(agentsmd_result_file_count(result) == 2);
    agentsmd_result_free(result);
}

/* A token requested while `list` of "a" answers, on this thread or another: the answer is taken,
 * and the stat of a/AGENTS.md that would come next is not asked. */
static void requested_in_a_callback(int on_other_thread) {
    struct memfs fs = {agentsmd_cancel_new(), "a", on_other_thread, 0, 0, 0, 0};
    CHECK(fs.cancel != NULL);
    agentsmd_options *options = options_with(&fs, fs.cancel);
    check_aborted(options, "a/AGENTS.md");
    CHECK(fs.calls > 0 && fs.after_cancel == 0 && fs.open_files == 0);
    agentsmd_cancel_free(fs.cancel);
    agentsmd_options_free(options);
    CHECK(fs.releases == 1);
}

int main(int argc, char **argv) {
    (void)argc, (void)argv;
    requested_in_a_callback(0);
    requested_in_a_callback(1);

    /* Requested before the call: no question is asked. */
    struct memfs fs = {NULL, NULL, 0, 0, 0, 0, 0};
    agentsmd_cancel *cancel = agentsmd_cancel_new();
    agentsmd_options *options = options_with(&fs, cancel);
    check_whole(options);
    CHECK(agentsmd_cancel_request(cancel) == AGENTSMD_STATUS_OK);
    int calls = fs.calls;
    check_aborted(options, "a");
    CHECK(fs.calls == calls);

    /* NULL takes the token away. */
    CHECK(agentsmd_options_set_cancel(options, NULL, NULL) == AGENTSMD_STATUS_OK);
    check_whole(options);

    /* The options keep their own reference: the token freed, a request made before is seen. */
    CHECK(agentsmd_options_set_cancel(options, cancel, NULL) == AGENTSMD_STATUS_OK);
    agentsmd_cancel_free(cancel);
    check_aborted(options, "a");
    cancel = agentsmd_cancel_new();
    CHECK(agentsmd_options_set_cancel(options, cancel, NULL) == AGENTSMD_STATUS_OK);
    agentsmd_cancel_free(cancel);
    check_whole(options);

    CHECK(agentsmd_cancel_request(NULL) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    agentsmd_cancel_free(NULL);
    agentsmd_options_free(options);
    CHECK(fs.open_files == 0 && fs.releases == 1);
    return 0;
}
