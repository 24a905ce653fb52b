/*
 * Fault injection, as SQLite's I/O-error tests do it: a custom file system in memory that fails
 * its N-th callback, for every N from 1 until a chain completes without reaching N.
 *
 * Three flavours of fault:
 * - ERROR with a message: the chain must fail with AGENTSMD_STATUS_FS and that message.
 * - NOT_FOUND: the name vanished. The chain may then succeed with another result, which must be
 *   the one SPEC.md gives for a file system where that name is not found (computed by model()
 *   below); a read answering NOT_FOUND on an open file is an AGENTSMD_STATUS_FS error.
 * - a panic inside the library right after the N-th callback (agentsmd_test_panic_after_callbacks,
 *   a test hook): AGENTSMD_STATUS_PANIC, the process alive, and the same options then give the
 *   fault-free result.
 * A run that does not reach N must give the fault-free result, byte for byte. Every run: nothing
 * written to result_out on failure, every file opened is closed exactly once (the handles are
 * heap blocks freed by close, so valgrind sees a close missed or repeated), and release runs
 * exactly once, when the options are freed.
 *
 * Also: a file system whose stat reports absurd sizes (up to UINT64_MAX) with a max_bytes large
 * enough to believe them reads the file as it is; the size is a hint, never an allocation.
 *
 * Usage: faults [REPO_DIR TEMP_DIR, both unused]
 */

#include "check.h"
#include "agentsmd_test_hooks.h"
#include "nodes.h"

/* What result_out holds before a chain: it must still hold it after a failed one. */
static char sentinel_storage;
#define SENTINEL_RESULT ((agentsmd_result *)(void *)&sentinel_storage)

/* ---- the tree ---------------------------------------------------------------------------- */

static const struct node NODES[] = {
    {".", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"AGENTS.md", AGENTSMD_ENTRY_KIND_FILE, "root agents\n"},
    {"CLAUDE.md", AGENTSMD_ENTRY_KIND_FILE, "root claude\n"}, /* shadowed by AGENTS.md */
    {"a", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"a/CLAUDE.md", AGENTSMD_ENTRY_KIND_FILE, "a claude"}, /* no newline: render adds one */
    {"a/notes.txt", AGENTSMD_ENTRY_KIND_FILE, "not an instruction file\n"},
    {"a/b", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"a/b/AGENTS.md", AGENTSMD_ENTRY_KIND_DIR, NULL}, /* a directory: no file */
    {"a/b/CLAUDE.md", AGENTSMD_ENTRY_KIND_FILE, "b claude, long enough to take several reads\n"},
    {"a/b/c", AGENTSMD_ENTRY_KIND_DIR, NULL},
    {"a/b/c/AGENTS.md", AGENTSMD_ENTRY_KIND_FILE, "c agents: over the budget\n"},
    {"a/b/c/CLAUDE.md", AGENTSMD_ENTRY_KIND_FILE, "c claude\n"},
    {"a/b/c/pipe", 3 /* AGENTSMD_ENTRY_KIND_OTHER */, NULL},
};
#define NODE_COUNT (sizeof NODES / sizeof NODES[0])

/* Each read hands out at most this many bytes, so that faults land between reads too. */
#define READ_CHUNK 7

static const struct node *find(const uint8_t *name, size_t len) {
    return node_find(NODES, NODE_COUNT, name, len);
}

/* The directory holding `name`, into `out` ("." for a name in the root). */
static void parent_of(const char *name, char *out, size_t capacity) {
    const char *slash = strrchr(name, '/');
    if (slash == NULL) {
        FORMAT(out, capacity, ".");
    } else {
        FORMAT(out, capacity, "%.*s", (int)(slash - name), name);
    }
}

static void join(const char *dir, const char *base, char *out, size_t capacity) {
    if (strcmp(dir, ".") == 0) {
        FORMAT(out, capacity, "%s", base);
    } else {
        FORMAT(out, capacity, "%s/%s", dir, base);
    }
}

/* ---- the file system and its faults -------------------------------------------------------- */

enum flavour { ERROR_FAULT, NOT_FOUND_FAULT, PANIC_FAULT };
static const char *const FLAVOURS[] = {"error", "not found", "panic"};

struct faultfs {
    unsigned long calls;   /* callbacks answered in this run: list, stat, open, read */
    unsigned long fail_at; /* the callback that faults; 0 for none */
    enum flavour flavour;
    int hit;               /* whether the fault was injected */
    char hit_op[8];        /* the callback it hit */
    char hit_name[64];     /* and the name it was about (a read's: the file's) */
    int opens, closes, releases;
    /* A size stat reports for every file instead of the truth, when not 0. */
    uint64_t lie;
};

/* Counts a callback; whether it is the one to fault, remembering what it hit. */
static int faults_now(struct faultfs *fs, const char *op, const uint8_t *name, size_t len) {
    fs->calls++;
    if (fs->flavour == PANIC_FAULT || fs->calls != fs->fail_at) {
        return 0;
    }
    fs->hit = 1;
    FORMAT(fs->hit_op, sizeof fs->hit_op, "%s", op);
    FORMAT(fs->hit_name, sizeof fs->hit_name, "%.*s", (int)len, (const char *)name);
    return 1;
}

static uint32_t fault(struct faultfs *fs, agentsmd_message *message) {
    if (fs->flavour == NOT_FOUND_FAULT) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    SET_MESSAGE(message, "injected fault at call %lu", fs->calls);
    return AGENTSMD_CALLBACK_STATUS_ERROR;
}

static uint32_t fs_list(void *userdata, const uint8_t *dir, size_t dir_len,
                        agentsmd_listing *listing, agentsmd_message *message) {
    struct faultfs *fs = userdata;
    if (faults_now(fs, "list", dir, dir_len)) {
        return fault(fs, message);
    }
    const struct node *node = find(dir, dir_len);
    if (node == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    CHECK(node->kind == AGENTSMD_ENTRY_KIND_DIR);
    nodes_list(NODES, NODE_COUNT, dir, dir_len, listing);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t fs_stat(void *userdata, const uint8_t *name, size_t name_len, uint32_t *kind_out,
                        uint64_t *size_out, agentsmd_message *message) {
    struct faultfs *fs = userdata;
    if (faults_now(fs, "stat", name, name_len)) {
        return fault(fs, message);
    }
    const struct node *node = find(name, name_len);
    if (node == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *kind_out = node->kind;
    *size_out = node->content ? (fs->lie ? fs->lie : strlen(node->content)) : 0;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t fs_open(void *userdata, const uint8_t *name, size_t name_len, void **file_out,
                        agentsmd_message *message) {
    struct faultfs *fs = userdata;
    if (faults_now(fs, "open", name, name_len)) {
        return fault(fs, message);
    }
    const struct node *node = find(name, name_len);
    if (node == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *file_out = handle_open(node); /* freed by close, once */
    fs->opens++;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t fs_read(void *userdata, void *file, uint8_t *buffer, size_t buffer_len,
                        size_t *read_out, agentsmd_message *message) {
    struct faultfs *fs = userdata;
    struct handle *handle = file;
    const char *name = handle->node->name;
    if (faults_now(fs, "read", (const uint8_t *)name, strlen(name))) {
        return fault(fs, message);
    }
    *read_out = handle_read(handle, buffer, buffer_len < READ_CHUNK ? buffer_len : READ_CHUNK);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static void fs_close(void *userdata, void *file) {
    struct faultfs *fs = userdata;
    free(file);
    fs->closes++;
}

static void fs_release(void *userdata) {
    struct faultfs *fs = userdata;
    fs->releases++;
}

/* ---- scenarios, and what SPEC.md says they find ------------------------------------------- */

struct scenario {
    const char *path;
    const char *root;      /* "" for the default */
    const char *names[2];
    uint64_t budget;
};

static const struct scenario SCENARIOS[] = {
    /* A file about to be created; AGENTS.md preferred; the budget runs out in a/b/c. */
    {"a/b/c/new.txt", "", {"AGENTS.md", "CLAUDE.md"}, 12 + 8 + 45},
    /* A directory as the path (so a stat fault changes the start), below a root, CLAUDE.md
     * preferred, no budget. */
    {"a/b/c", "a", {"CLAUDE.md", "AGENTS.md"}, 0},
};
#define SCENARIO_COUNT (sizeof SCENARIOS / sizeof SCENARIOS[0])

#define MAX_FILES 8

struct omitted {
    char path[64];
    uint64_t size;
    agentsmd_reason reason;
    char by[64];
};

struct expected {
    char files[MAX_FILES][64];
    size_t file_count;
    struct omitted omitted[MAX_FILES];
    size_t omitted_count;
};

/* Whether the fault (`op`, `name`) is the question (`asked_op`, `asked_name`). */
static int vanished(const char *op, const char *name, const char *asked_op,
                    const char *asked_name) {
    return op != NULL && strcmp(op, asked_op) == 0 && strcmp(name, asked_name) == 0;
}

/* What SPEC.md §1 finds for `s` when (`op`, `name`) answers NOT_FOUND (op NULL: no fault).
 * Written from the spec for this tree, independently of the library. */
static void model(const struct scenario *s, const char *op, const char *name,
                  struct expected *out) {
    memset(out, 0, sizeof *out);
    const char *root = s->root[0] ? s->root : ".";

    /* The start directory: the path if it is a directory, otherwise its parent. */
    char start[64];
    const struct node *at = find((const uint8_t *)s->path, strlen(s->path));
    if (at != NULL && at->kind == AGENTSMD_ENTRY_KIND_DIR && !vanished(op, name, "stat", s->path)) {
        FORMAT(start, sizeof start, "%s", s->path);
    } else {
        parent_of(s->path, start, sizeof start);
    }

    /* The directories from the root down to the start. */
    char dirs[8][64];
    size_t dir_count = 0;
    char dir[64];
    FORMAT(dir, sizeof dir, "%s", start);
    for (;;) {
        FORMAT(dirs[dir_count++], sizeof dirs[0], "%s", dir);
        if (strcmp(dir, root) == 0) {
            break;
        }
        char up[64];
        parent_of(dir, up, sizeof up);
        FORMAT(dir, sizeof dir, "%s", up);
    }

    uint64_t spent = 0;
    int ended = 0;
    for (size_t d = dir_count; d-- > 0;) {
        if (vanished(op, name, "list", dirs[d])) {
            break; /* a directory not found lists nothing, and nothing below it is asked */
        }
        const char *chosen = NULL;
        for (size_t n = 0; n < 2; n++) {
            char path[64];
            join(dirs[d], s->names[n], path, sizeof path);
            const struct node *node = find((const uint8_t *)path, strlen(path));
            if (node == NULL || vanished(op, name, "stat", path) ||
                node->kind != AGENTSMD_ENTRY_KIND_FILE) {
                continue; /* no file */
            }
            uint64_t size = strlen(node->content);
            if (chosen != NULL) {
                struct omitted *o = &out->omitted[out->omitted_count++];
                FORMAT(o->path, sizeof o->path, "%s", path);
                o->size = size;
                o->reason = AGENTSMD_REASON_SHADOWED;
                FORMAT(o->by, sizeof o->by, "%s", chosen);
                continue;
            }
            if (ended || (s->budget != 0 && spent + size > s->budget)) {
                ended = 1;
                struct omitted *o = &out->omitted[out->omitted_count++];
                FORMAT(o->path, sizeof o->path, "%s", path);
                o->size = size;
                o->reason = AGENTSMD_REASON_OVER_BUDGET;
                chosen = node->name;
                continue;
            }
            if (vanished(op, name, "open", path)) {
                continue; /* not found when opened: no file, the next name is tried */
            }
            spent += size;
            FORMAT(out->files[out->file_count++], sizeof out->files[0], "%s", path);
            chosen = node->name;
        }
    }
}

/* Checks that `result` is exactly `expected`, contents included. */
static void check_result(const agentsmd_result *result, const struct expected *expected) {
    agentsmd_error *err = NULL;
    CHECK(agentsmd_result_file_count(result) == expected->file_count);
    for (size_t i = 0; i < expected->file_count; i++) {
        agentsmd_file file;
        CHECK_STATUS(agentsmd_result_file(result, i, &file, &err), AGENTSMD_STATUS_OK, err);
        CHECK_BYTES(file.path, expected->files[i]);
        const struct node *node = find(file.path.ptr, file.path.len);
        CHECK(node != NULL);
        CHECK_BYTES(file.content, node->content);
    }
    CHECK(agentsmd_result_omitted_count(result) == expected->omitted_count);
    for (size_t i = 0; i < expected->omitted_count; i++) {
        agentsmd_omitted omitted;
        CHECK_STATUS(agentsmd_result_omitted(result, i, &omitted, &err), AGENTSMD_STATUS_OK, err);
        CHECK_BYTES(omitted.path, expected->omitted[i].path);
        CHECK(omitted.size == expected->omitted[i].size);
        CHECK(omitted.reason == expected->omitted[i].reason);
        CHECK_BYTES(omitted.by, expected->omitted[i].by);
    }
}

/* New options for `s` on `state`, which is reset. */
static agentsmd_options *options_for(const struct scenario *s, struct faultfs *state) {
    memset(state, 0, sizeof *state);
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    agentsmd_fs fs = {state, fs_list, fs_stat, fs_open, fs_read, fs_close, fs_release};
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_fs(options, &fs, &err), AGENTSMD_STATUS_OK, err);
    agentsmd_bytes names[] = {str(s->names[0]), str(s->names[1])};
    CHECK_STATUS(agentsmd_options_set_names(options, names, 2, &err), AGENTSMD_STATUS_OK, err);
    CHECK_STATUS(agentsmd_options_set_root(options, (const uint8_t *)s->root, strlen(s->root),
                                           &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK_STATUS(agentsmd_options_set_budget(options, s->budget, &err), AGENTSMD_STATUS_OK, err);
    return options;
}

static agentsmd_status run_chain(const struct scenario *s, const agentsmd_options *options,
                                 agentsmd_result **result, agentsmd_error **err) {
    *result = SENTINEL_RESULT;
    *err = NULL;
    return agentsmd_chain((const uint8_t *)s->path, strlen(s->path), options, result, err);
}

/* ---- the runs ---------------------------------------------------------------------------- */

struct tally {
    unsigned long runs, errors, changed, unchanged, panics;
};

/* One run of `s` with a fault of `flavour` at callback `n`; whether the fault was reached. */
static int run_once(const struct scenario *s, enum flavour flavour, unsigned long n,
                    const struct expected *fault_free, struct tally *tally) {
    struct faultfs state;
    agentsmd_options *options = options_for(s, &state);
    state.flavour = flavour;
    state.fail_at = n;
    if (flavour == PANIC_FAULT) {
        agentsmd_test_panic_after_callbacks(n);
    }
    agentsmd_result *result;
    agentsmd_error *err;
    agentsmd_status status = run_chain(s, options, &result, &err);
    tally->runs++;
    int reached;
    if (flavour == PANIC_FAULT) {
        agentsmd_test_panic_after_callbacks(0);
        reached = status == AGENTSMD_STATUS_PANIC;
    } else {
        reached = state.hit;
    }

    if (!reached) {
        /* The fault was never reached: the fault-free result, exactly. */
        CHECK_STATUS(status, AGENTSMD_STATUS_OK, err);
        check_result(result, fault_free);
        tally->unchanged++;
    } else if (status != AGENTSMD_STATUS_OK) {
        CHECK(result == SENTINEL_RESULT); /* nothing written on failure */
        CHECK(err != NULL && agentsmd_error_status(err) == status);
        const char *message = agentsmd_error_message(err);
        if (flavour == ERROR_FAULT) {
            CHECK_STATUS(status, AGENTSMD_STATUS_FS, err);
            char wanted[64];
            FORMAT(wanted, sizeof wanted, "injected fault at call %lu", n);
            CHECK_CONTAINS(message, wanted);
            CHECK_CONTAINS(message, state.hit_name);
            tally->errors++;
        } else if (flavour == NOT_FOUND_FAULT) {
            /* Only a read may not answer NOT_FOUND: the file is open. */
            CHECK_STATUS(status, AGENTSMD_STATUS_FS, err);
            CHECK(strcmp(state.hit_op, "read") == 0);
            CHECK_CONTAINS(message, state.hit_name);
            tally->errors++;
        } else {
            CHECK_STATUS(status, AGENTSMD_STATUS_PANIC, err);
            CHECK_CONTAINS(message, "injected panic");
            tally->panics++;
            /* Nothing is left broken: the same options give the fault-free result. */
            agentsmd_result *again;
            agentsmd_error *again_err;
            CHECK_STATUS(run_chain(s, options, &again, &again_err), AGENTSMD_STATUS_OK,
                         again_err);
            check_result(again, fault_free);
            agentsmd_result_free(again);
        }
    } else {
        /* Reached and succeeded: only a NOT_FOUND, and then SPEC.md's result for a file system
         * where that name is not found. */
        CHECK(flavour == NOT_FOUND_FAULT);
        CHECK(strcmp(state.hit_op, "read") != 0);
        struct expected expected;
        model(s, state.hit_op, state.hit_name, &expected);
        check_result(result, &expected);
        if (memcmp(&expected, fault_free, sizeof expected) == 0) {
            tally->unchanged++;
        } else {
            tally->changed++;
        }
    }
    if (status == AGENTSMD_STATUS_OK) {
        agentsmd_result_free(result);
    }
    agentsmd_error_free(err);

    CHECK(state.opens == state.closes); /* and valgrind sees each handle freed once */
    CHECK(state.releases == 0);
    agentsmd_options_free(options);
    CHECK(state.releases == 1);
    return reached;
}

static void test_every_fault(void) {
    unsigned long total = 0;
    for (size_t i = 0; i < SCENARIO_COUNT; i++) {
        const struct scenario *s = &SCENARIOS[i];
        struct expected fault_free;
        model(s, NULL, NULL, &fault_free);
        CHECK(fault_free.file_count >= 2); /* the scenario finds something to lose */

        /* The fault-free run, which also counts the callbacks a run makes. */
        struct faultfs state;
        agentsmd_options *options = options_for(s, &state);
        agentsmd_result *result;
        agentsmd_error *err;
        CHECK_STATUS(run_chain(s, options, &result, &err), AGENTSMD_STATUS_OK, err);
        check_result(result, &fault_free);
        agentsmd_result_free(result);
        unsigned long callbacks = state.calls;
        agentsmd_options_free(options);

        for (enum flavour flavour = ERROR_FAULT; flavour <= PANIC_FAULT; flavour++) {
            struct tally tally = {0, 0, 0, 0, 0};
            unsigned long n = 1;
            while (run_once(s, flavour, n, &fault_free, &tally)) {
                n++;
            }
            /* Every callback of the fault-free run was faulted once. */
            CHECK(n == callbacks + 1);
            total += tally.runs;
            printf("faults: scenario %zu, %-9s: %lu runs over %lu callbacks: %lu errors, "
                   "%lu panics caught, %lu changed results as SPEC.md says, %lu unchanged\n",
                   i, FLAVOURS[flavour], tally.runs, callbacks, tally.errors, tally.panics,
                   tally.changed, tally.unchanged);
        }
    }
    printf("faults: %lu runs in all\n", total);
}

/* A stat that reports absurd sizes, believed by a max_bytes as large: the file is read as it
 * is, and nothing is allocated from the claim. */
static void test_lying_sizes(void) {
    static const uint64_t LIES[] = {UINT64_MAX, UINT64_MAX / 2, (uint64_t)1 << 40};
    const struct scenario *s = &SCENARIOS[1];
    for (size_t i = 0; i < sizeof LIES / sizeof LIES[0]; i++) {
        struct expected expected;
        model(s, NULL, NULL, &expected);
        for (size_t o = 0; o < expected.omitted_count; o++) {
            expected.omitted[o].size = LIES[i]; /* a shadowed file's size is the reported one */
        }
        struct faultfs state;
        agentsmd_options *options = options_for(s, &state);
        state.lie = LIES[i];
        agentsmd_error *err = NULL;
        CHECK_STATUS(agentsmd_options_set_max_bytes(options, UINT64_MAX, &err),
                     AGENTSMD_STATUS_OK, err);
        agentsmd_result *result;
        CHECK_STATUS(run_chain(s, options, &result, &err), AGENTSMD_STATUS_OK, err);
        check_result(result, &expected);
        agentsmd_result_free(result);
        CHECK(state.opens == state.closes);
        agentsmd_options_free(options);
    }
}

int main(void) {
    test_every_fault();
    test_lying_sizes();
    printf("faults: ok\n");
    return 0;
}
