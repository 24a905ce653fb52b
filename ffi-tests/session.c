/*
 * Sessions (SPEC.md §10) through the C API: the first touch is the chain, a later touch gives
 * only what the session has not given, a path outside the root gives nothing, nearest-only is
 * refused, NULL arguments are refused, and eight threads touching one session give each file
 * exactly once. Run under valgrind (tests/ffi.rs).
 *
 * Usage: session REPO_DIR TEMP_DIR (a fresh directory the test writes its files in)
 */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>

#include "calls.h"
#include "scratch.h"

#define THREADS 8
#define DIRS 8

/* A new session rooted at <scratch>/<rel>, with `names` (NULL: the default). */
static agentsmd_session *session_at(const char *rel) {
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    const char *root = at(rel);
    SUCCEEDS(agentsmd_options_set_root(options, (const uint8_t *)root, strlen(root), &err));
    agentsmd_session *session = NULL;
    SUCCEEDS(agentsmd_session_new(options, &session, &err));
    /* The session holds a copy: the options may go at once. */
    agentsmd_options_free(options);
    return session;
}

/* The delta of touching `path`, which must succeed. */
static agentsmd_result *touch(const agentsmd_session *session, const char *path) {
    agentsmd_result *result = NULL;
    SUCCEEDS(agentsmd_session_touch(session, (const uint8_t *)path, strlen(path), &result, &err));
    return result;
}

/* File `index` of `result` has `content`. */
static void check_content(const agentsmd_result *result, size_t index, const char *content) {
    agentsmd_file file;
    SUCCEEDS(agentsmd_result_file(result, index, &file, &err));
    CHECK_BYTES(file.content, content);
}

static void test_touches(void) {
    make_dir("repo");
    make_dir("repo/a");
    make_dir("repo/a/b");
    write_file("repo/AGENTS.md", "root\n");
    write_file("repo/a/AGENTS.md", "a\n");
    write_file("repo/a/b/AGENTS.md", "b\n");
    agentsmd_session *session = session_at("repo");

    agentsmd_result *first = touch(session, at("repo/a/new.c"));
    CHECK(agentsmd_result_file_count(first) == 2);
    check_content(first, 0, "root\n");
    check_content(first, 1, "a\n");
    agentsmd_result_free(first);

    agentsmd_result *second = touch(session, at("repo/a/b/main.c"));
    CHECK(agentsmd_result_file_count(second) == 1);
    check_content(second, 0, "b\n");
    agentsmd_result_free(second);

    agentsmd_result *again = touch(session, at("repo/a/b"));
    CHECK(agentsmd_result_file_count(again) == 0);
    agentsmd_result_free(again);

    /* Outside the root: an empty delta, no error. */
    agentsmd_result *outside = touch(session, at("elsewhere/x.c"));
    CHECK(agentsmd_result_file_count(outside) == 0);
    CHECK(agentsmd_result_omitted_count(outside) == 0);
    agentsmd_result_free(outside);
    agentsmd_session_free(session);
}

static void test_refusals(void) {
    agentsmd_options *options = agentsmd_options_new();
    SUCCEEDS(agentsmd_options_set_nearest(options, 1, &err));
    agentsmd_session *session = SENTINEL;
    INVALID(agentsmd_session_new(options, &session, &err));
    CHECK(session == SENTINEL);
    CHECK_CONTAINS(agentsmd_error_message(err), "nearest");
    agentsmd_options_free(options);
    INVALID(agentsmd_session_new(NULL, NULL, &err));
    agentsmd_result *result = SENTINEL;
    INVALID(agentsmd_session_touch(NULL, (const uint8_t *)"x", 1, &result, &err));
    CHECK(result == SENTINEL);
    /* A handle of another type is refused, not read as a session. */
    agentsmd_options *other = agentsmd_options_new();
    INVALID(agentsmd_session_touch((const agentsmd_session *)other, (const uint8_t *)"x", 1,
                                   &result, &err));
    agentsmd_options_free(other);
    agentsmd_session *defaults = NULL;
    SUCCEEDS(agentsmd_session_new(NULL, &defaults, &err));
    INVALID(agentsmd_session_touch(defaults, NULL, 1, &result, &err));
    agentsmd_session_free(defaults);
    agentsmd_session_free(NULL);
}

/* A touch stopped by its cancellation token fails Aborted and gives nothing; the next touch,
 * without it, gives what the cancelled one would have. */
static void test_cancel(void) {
    agentsmd_session *session = session_at("repo");
    agentsmd_cancel *cancel = agentsmd_cancel_new();
    SUCCEEDS(agentsmd_cancel_request(cancel));
    const char *path = at("repo/a");
    agentsmd_result *result = SENTINEL;
    FAILS(agentsmd_session_touch_cancellable(session, (const uint8_t *)path, strlen(path), cancel,
                                             &result, &err),
          AGENTSMD_STATUS_ABORTED);
    CHECK(result == SENTINEL);
    agentsmd_cancel_free(cancel);
    result = touch(session, path);
    CHECK(agentsmd_result_file_count(result) == 2);
    agentsmd_result_free(result);
    agentsmd_session_free(session);
}

/* ---- eight threads, one session: each file given once ---------------------------------- */

struct worker {
    const agentsmd_session *session;
    int index;
    /* How many times each directory's file was given to this thread; [DIRS] is the root's. */
    int given[DIRS + 1];
    int failed;
};

static void *work(void *arg) {
    struct worker *w = arg;
    char path[SCRATCH_CAPACITY];
    for (int round = 0; round < DIRS; round++) {
        int dir = (w->index + round) % DIRS;
        FORMAT(path, sizeof path, "%s/d%d/file%d.c", at("shared"), dir, w->index);
        agentsmd_result *result = NULL;
        agentsmd_error *error = NULL;
        if (agentsmd_session_touch(w->session, (const uint8_t *)path, strlen(path), &result,
                                   &error) != AGENTSMD_STATUS_OK) {
            agentsmd_error_free(error);
            w->failed = 1;
            continue;
        }
        for (size_t i = 0; i < agentsmd_result_file_count(result); i++) {
            agentsmd_file file;
            if (agentsmd_result_file(result, i, &file, &error) != AGENTSMD_STATUS_OK) {
                agentsmd_error_free(error);
                w->failed = 1;
                continue;
            }
            int d = file.content.len > 0 && file.content.ptr[0] == 'd'
                        ? file.content.ptr[1] - '0'
                        : DIRS;
            w->given[d]++;
        }
        agentsmd_result_free(result);
    }
    return NULL;
}

static void test_threads(void) {
    make_dir("shared");
    write_file("shared/AGENTS.md", "root\n");
    for (int d = 0; d < DIRS; d++) {
        char rel[64], file[64], content[8];
        FORMAT(rel, sizeof rel, "shared/d%d", d);
        make_dir(rel);
        FORMAT(file, sizeof file, "shared/d%d/AGENTS.md", d);
        FORMAT(content, sizeof content, "d%d\n", d);
        write_file(file, content);
    }
    agentsmd_session *session = session_at("shared");
    struct worker workers[THREADS];
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
        workers[i] = (struct worker){.session = session, .index = i};
        CHECK(pthread_create(&threads[i], NULL, work, &workers[i]) == 0);
    }
    int total[DIRS + 1] = {0};
    for (int i = 0; i < THREADS; i++) {
        CHECK(pthread_join(threads[i], NULL) == 0);
        CHECK(!workers[i].failed);
        for (int d = 0; d <= DIRS; d++) {
            total[d] += workers[i].given[d];
        }
    }
    for (int d = 0; d <= DIRS; d++) {
        CHECK(total[d] == 1);
    }
    agentsmd_session_free(session);
}

int main(int argc, char **argv) {
    CHECK(argc >= 3);
    FORMAT(scratch, sizeof scratch, "%s", argv[2]);
    test_touches();
    test_refusals();
    test_cancel();
    test_threads();
    agentsmd_error_free(err);
    return 0;
}
