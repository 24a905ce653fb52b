/*
 * Eight threads share two options handles and one result, as the header allows (a const handle
 * may be used from several threads at once): each thread runs chains on an OS tree and on a
 * thread-safe custom file system, reads the shared result, renders, and fails an argument check,
 * over and over, and every answer must equal the one the main thread got alone. Run under
 * helgrind by tests/hardening/threads.rs, which reports any race.
 *
 * Usage: threads REPO_DIR TEMP_DIR [ITERATIONS]
 */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <sys/stat.h>

#include "check.h"
#include "nodes.h"
#include "scratch.h"

#define THREADS 8
#define PATH_CAPACITY 4096

/* ---- a thread-safe custom file system: a constant table, and counters under a mutex -------- */

static const struct node NODES[] = {
    {".", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"AGENTS.md", AGENTSMD_ENTRY_KIND_FILE, "memory root\n"},
    {"CLAUDE.md", AGENTSMD_ENTRY_KIND_FILE, "shadowed\n"},
    {"x", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"x/AGENTS.md", AGENTSMD_ENTRY_KIND_FILE, "memory x & <y>"},
    {"x/y", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"x/y/CLAUDE.md", AGENTSMD_ENTRY_KIND_FILE, "memory y, over the budget\n"},
};
#define NODE_COUNT (sizeof NODES / sizeof NODES[0])

struct memfs {
    pthread_mutex_t lock;
    long opens, closes, releases;
};

static const struct node *find(const uint8_t *name, size_t len) {
    return node_find(NODES, NODE_COUNT, name, len);
}

static uint32_t mem_list(void *userdata, const uint8_t *dir, size_t dir_len,
                         agentsmd_listing *listing, agentsmd_message *message) {
    (void)userdata;
    (void)message;
    if (find(dir, dir_len) == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    nodes_list(NODES, NODE_COUNT, dir, dir_len, listing);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t mem_stat(void *userdata, const uint8_t *name, size_t name_len, uint32_t *kind_out,
                         uint64_t *size_out, agentsmd_message *message) {
    (void)userdata;
    (void)message;
    const struct node *node = find(name, name_len);
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
    const struct node *node = find(name, name_len);
    if (node == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *file_out = handle_open(node);
    pthread_mutex_lock(&fs->lock);
    fs->opens++;
    pthread_mutex_unlock(&fs->lock);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t mem_read(void *userdata, void *file, uint8_t *buffer, size_t buffer_len,
                         size_t *read_out, agentsmd_message *message) {
    (void)userdata;
    (void)message;
    *read_out = handle_read(file, buffer, buffer_len);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static void mem_close(void *userdata, void *file) {
    struct memfs *fs = userdata;
    free(file);
    pthread_mutex_lock(&fs->lock);
    fs->closes++;
    pthread_mutex_unlock(&fs->lock);
}

static void mem_release(void *userdata) {
    struct memfs *fs = userdata;
    pthread_mutex_lock(&fs->lock);
    fs->releases++;
    pthread_mutex_unlock(&fs->lock);
}

/* ---- the OS tree -------------------------------------------------------------------------- */


/* ---- what every thread does, and what the main thread found alone ------------------------- */

struct shared {
    const agentsmd_options *os_options;
    const agentsmd_options *memory_options;
    const agentsmd_result *result; /* one result every thread reads */
    char os_path[PATH_CAPACITY];
    agentsmd_buffer *os_expected;
    agentsmd_buffer *memory_expected;
    int iterations;
    pthread_barrier_t start;
};

/* The rendering of `result`, and whether it equals `expected`'s bytes. */
static int renders_as(const agentsmd_result *result, const agentsmd_buffer *expected) {
    agentsmd_buffer *buffer = NULL;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_result_render(result, &buffer, &err), AGENTSMD_STATUS_OK, err);
    int same = agentsmd_buffer_len(buffer) == agentsmd_buffer_len(expected) &&
               memcmp(agentsmd_buffer_data(buffer), agentsmd_buffer_data(expected),
                      agentsmd_buffer_len(buffer)) == 0;
    agentsmd_buffer_free(buffer);
    return same;
}

static agentsmd_result *chain(const char *path, const agentsmd_options *options) {
    agentsmd_result *result = NULL;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err),
                 AGENTSMD_STATUS_OK, err);
    return result;
}

/* Reads every part of the shared result; the number of answers that differ from the first
 * reading's. */
static int read_shared(const agentsmd_result *result) {
    int wrong = 0;
    agentsmd_error *err = NULL;
    size_t files = agentsmd_result_file_count(result);
    wrong += files != 2;
    for (size_t i = 0; i < files; i++) {
        agentsmd_file file;
        CHECK_STATUS(agentsmd_result_file(result, i, &file, &err), AGENTSMD_STATUS_OK, err);
        wrong += file.content.len == 0;
    }
    size_t omitted = agentsmd_result_omitted_count(result);
    wrong += omitted != 3;
    for (size_t i = 0; i < omitted; i++) {
        agentsmd_omitted entry;
        CHECK_STATUS(agentsmd_result_omitted(result, i, &entry, &err), AGENTSMD_STATUS_OK, err);
        wrong += entry.path.len == 0;
    }
    return wrong;
}

static void *work(void *arg) {
    struct shared *shared = arg;
    long wrong = 0;
    pthread_barrier_wait(&shared->start);
    for (int i = 0; i < shared->iterations; i++) {
        agentsmd_result *os = chain(shared->os_path, shared->os_options);
        wrong += !renders_as(os, shared->os_expected);
        agentsmd_result_free(os);

        agentsmd_result *memory = chain("x/y/new.txt", shared->memory_options);
        wrong += !renders_as(memory, shared->memory_expected);
        agentsmd_result_free(memory);

        wrong += read_shared(shared->result);
        wrong += !renders_as(shared->result, shared->os_expected);

        /* An error object made and freed on every thread. */
        agentsmd_result *none = NULL;
        agentsmd_error *err = NULL;
        wrong += agentsmd_chain((const uint8_t *)"/", 1, shared->memory_options, &none, &err) !=
                 AGENTSMD_STATUS_INVALID_ARGUMENT;
        wrong += none != NULL || agentsmd_error_message(err)[0] == '\0';
        agentsmd_error_free(err);
    }
    return (void *)(intptr_t)wrong;
}

int main(int argc, char **argv) {
    CHECK(argc >= 3);
    FORMAT(scratch, sizeof scratch, "%s", argv[2]);
    int iterations = argc > 3 ? atoi(argv[3]) : 25;
    CHECK(iterations > 0);

    make_dir("a");
    make_dir("a/b");
    write_file("AGENTS.md", "os root\n");
    write_file("CLAUDE.md", "os root, shadowed\n");
    write_file("a/CLAUDE.md", "os a\n");
    write_file("a/b/AGENTS.md", "os b, over the budget\n");
    write_file("a/b/CLAUDE.md", "os b, shadowed by the one over the budget\n");

    agentsmd_error *err = NULL;
    agentsmd_bytes names[] = {str("AGENTS.md"), str("CLAUDE.md")};

    agentsmd_options *os_options = agentsmd_options_new();
    CHECK(os_options != NULL);
    CHECK_STATUS(agentsmd_options_set_root(os_options, (const uint8_t *)scratch, strlen(scratch), &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK_STATUS(agentsmd_options_set_names(os_options, names, 2, &err), AGENTSMD_STATUS_OK, err);
    CHECK_STATUS(agentsmd_options_set_budget(os_options, 16, &err), AGENTSMD_STATUS_OK, err);

    struct memfs memfs = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0};
    agentsmd_fs fs = {&memfs, mem_list, mem_stat, mem_open, mem_read, mem_close, mem_release};
    agentsmd_options *memory_options = agentsmd_options_new();
    CHECK(memory_options != NULL);
    CHECK_STATUS(agentsmd_options_set_fs(memory_options, &fs, &err), AGENTSMD_STATUS_OK, err);
    CHECK_STATUS(agentsmd_options_set_names(memory_options, names, 2, &err), AGENTSMD_STATUS_OK,
                 err);
    CHECK_STATUS(agentsmd_options_set_rendered_budget(memory_options, 200, &err),
                 AGENTSMD_STATUS_OK, err);

    /* What one thread finds alone. */
    struct shared shared;
    shared.os_options = os_options;
    shared.memory_options = memory_options;
    shared.iterations = iterations;
    FORMAT(shared.os_path, sizeof shared.os_path, "%s/a/b/new.txt", scratch);
    agentsmd_result *result = chain(shared.os_path, os_options);
    shared.result = result;
    CHECK(read_shared(result) == 0);
    CHECK_STATUS(agentsmd_result_render(result, &shared.os_expected, &err), AGENTSMD_STATUS_OK,
                 err);
    agentsmd_result *memory = chain("x/y/new.txt", memory_options);
    CHECK(agentsmd_result_file_count(memory) == 2);
    CHECK(agentsmd_result_omitted_count(memory) == 2);
    CHECK_STATUS(agentsmd_result_render(memory, &shared.memory_expected, &err),
                 AGENTSMD_STATUS_OK, err);
    agentsmd_result_free(memory);

    /* Eight at once. */
    CHECK(pthread_barrier_init(&shared.start, NULL, THREADS) == 0);
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        CHECK(pthread_create(&threads[i], NULL, work, &shared) == 0);
    }
    long wrong = 0;
    for (int i = 0; i < THREADS; i++) {
        void *answer;
        CHECK(pthread_join(threads[i], &answer) == 0);
        wrong += (long)(intptr_t)answer;
    }
    CHECK(pthread_barrier_destroy(&shared.start) == 0);
    CHECK(wrong == 0);

    agentsmd_result_free(result);
    agentsmd_buffer_free(shared.os_expected);
    agentsmd_buffer_free(shared.memory_expected);
    agentsmd_options_free(os_options);
    agentsmd_options_free(memory_options);
    CHECK(memfs.opens == memfs.closes && memfs.opens > 0);
    CHECK(memfs.releases == 1);
    printf("threads: %d threads x %d iterations: identical answers\n", THREADS, iterations);
    return 0;
}
