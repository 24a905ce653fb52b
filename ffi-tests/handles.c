/*
 * Every handle type passed to every other type's functions: each refuses it (an error, or the
 * answer it gives NULL), frees nothing, and reads no byte past the handle it was given. Run
 * under valgrind (tests/ffi.rs) and AddressSanitizer (tests/hardening/sanitizers.rs), which see
 * an invalid read where a check would look for its tag beyond a smaller handle's end.
 *
 * The listing and the message are live only during a `list` callback, so they are passed around
 * from within one.
 *
 * Then the handles lent to callbacks, kept past them: a listing and a message kept from one
 * `list` call and a content kept from one transform, used by every later callback of 320 chains
 * and after each chain has returned. Each use is refused with AGENTSMD_STATUS_INVALID_ARGUMENT, and nothing is
 * read where the handle was (valgrind and ASan would see a read of a dead stack slot). A live
 * one is refused on another thread, and stays live while its callback runs a nested chain,
 * whose own listing is refused once that chain has returned.
 *
 * Usage: handles REPO_DIR TEMP_DIR (neither is used: the file system is in memory)
 */

#define _POSIX_C_SOURCE 200809L

#include <pthread.h>

#include "check.h"
#include "onefile.h"

/* The error of the last call checked with INVALID, freed by the next. */
static agentsmd_error *err;

/* `call`, which passes `&err` as its error_out, fails with AGENTSMD_STATUS_INVALID_ARGUMENT. */
#define INVALID(call)                                                                \
    do {                                                                             \
        agentsmd_error_free(err);                                                    \
        err = NULL;                                                                  \
        CHECK_STATUS(call, AGENTSMD_STATUS_INVALID_ARGUMENT, err);                   \
        CHECK(err != NULL);                                                          \
        CHECK(agentsmd_error_status(err) == AGENTSMD_STATUS_INVALID_ARGUMENT);         \
    } while (0)

/* One handle of every type, live while the foreign calls run. */
static agentsmd_options *options;
static agentsmd_result *result;
static agentsmd_error *error;
static agentsmd_buffer *buffer;
static agentsmd_document *document;
static agentsmd_block *block;
static agentsmd_cancel *cancel;

/* An output the library must leave alone on failure. */
static char sentinel_storage;
#define SENTINEL ((void *)&sentinel_storage)

/* `handle`, of another type, given to every function taking an options handle. */
static void as_options(void *handle) {
    agentsmd_options *foreign = handle;
    agentsmd_bytes name = str("AGENTS.md");
    INVALID(agentsmd_options_set_names(foreign, &name, 1, &err));
    INVALID(agentsmd_options_set_root(foreign, (const uint8_t *)"r", 1, &err));
    INVALID(agentsmd_options_set_extra(foreign, &name, 1, &err));
    INVALID(agentsmd_options_set_max_bytes(foreign, 1, &err));
    INVALID(agentsmd_options_set_budget(foreign, 1, &err));
    INVALID(agentsmd_options_set_rendered_budget(foreign, 1, &err));
    INVALID(agentsmd_options_set_confine(foreign, 0, &err));
    INVALID(agentsmd_options_set_fs(foreign, NULL, &err));
    INVALID(agentsmd_options_set_cancel(foreign, NULL, &err));
    agentsmd_result *result_out = SENTINEL;
    INVALID(agentsmd_chain((const uint8_t *)".", 1, foreign, &result_out, &err));
    CHECK(result_out == SENTINEL);
    agentsmd_options_free(foreign); /* refused: nothing freed */
}

/* `handle`, of another type, given to every function taking a result. */
static void as_result(void *handle) {
    agentsmd_result *foreign = handle;
    CHECK(agentsmd_result_file_count(foreign) == 0);
    CHECK(agentsmd_result_omitted_count(foreign) == 0);
    agentsmd_file file;
    INVALID(agentsmd_result_file(foreign, 0, &file, &err));
    agentsmd_omitted omitted;
    INVALID(agentsmd_result_omitted(foreign, 0, &omitted, &err));
    agentsmd_buffer *buffer_out = SENTINEL;
    INVALID(agentsmd_result_render(foreign, &buffer_out, &err));
    CHECK(buffer_out == SENTINEL);
    agentsmd_result_free(foreign);
}

/* `handle`, of another type, given to every function taking an error. */
static void as_error(void *handle) {
    agentsmd_error *foreign = handle;
    CHECK(agentsmd_error_status(foreign) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(strcmp(agentsmd_error_message(foreign), "") == 0);
    CHECK(agentsmd_error_os_code(foreign) == 0);
    CHECK(agentsmd_error_path(foreign).ptr == NULL);
    CHECK(agentsmd_error_line(foreign) == 0);
    agentsmd_error_free(foreign);
}

/* `handle`, of another type, given to every function taking a buffer. */
static void as_buffer(void *handle) {
    agentsmd_buffer *foreign = handle;
    CHECK(agentsmd_buffer_data(foreign) == NULL);
    CHECK(agentsmd_buffer_len(foreign) == 0);
    agentsmd_buffer_free(foreign);
}

/* `handle`, of another type, given to every function taking a document. */
static void as_document(void *handle) {
    agentsmd_document *foreign = handle;
    CHECK(agentsmd_document_warning_count(foreign) == 0);
    CHECK(agentsmd_document_requested_count(foreign) == 0);
    CHECK(agentsmd_document_skill_count(foreign) == 0);
    CHECK(agentsmd_document_unknown_count(foreign) == 0);
    CHECK(agentsmd_document_unit_count(foreign) == 0);
    agentsmd_warning warning;
    INVALID(agentsmd_document_warning(foreign, 0, &warning, &err));
    agentsmd_bytes name;
    INVALID(agentsmd_document_requested(foreign, 0, &name, &err));
    agentsmd_skill skill;
    INVALID(agentsmd_document_skill(foreign, 0, &skill, &err));
    INVALID(agentsmd_document_unknown(foreign, 0, &name, &err));
    agentsmd_unit unit;
    INVALID(agentsmd_document_unit(foreign, 0, &unit, &err));
    agentsmd_block *block_out = SENTINEL;
    INVALID(agentsmd_document_block(foreign, NULL, &block_out, &err));
    CHECK(block_out == SENTINEL);
    agentsmd_document_free(foreign);
}

/* `handle`, of another type, given to every function taking a block. */
static void as_block(void *handle) {
    agentsmd_block *foreign = handle;
    CHECK(agentsmd_block_data(foreign) == NULL);
    CHECK(agentsmd_block_len(foreign) == 0);
    CHECK(agentsmd_block_cap(foreign) == 0);
    CHECK(agentsmd_block_dropped_count(foreign) == 0);
    agentsmd_dropped dropped;
    INVALID(agentsmd_block_dropped(foreign, 0, &dropped, &err));
    agentsmd_block_free(foreign);
}

/* `handle`, of another type, given to every function taking a cancellation token: the live
 * options are left without one. */
static void as_cancel(void *handle) {
    agentsmd_cancel *foreign = handle;
    CHECK(agentsmd_cancel_request(foreign) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    INVALID(agentsmd_options_set_cancel(options, foreign, &err));
    agentsmd_cancel_free(foreign);
}

/* `handle`, of another type, given to the function taking a listing. */
static void as_listing(void *handle) {
    agentsmd_listing *foreign = handle;
    CHECK(agentsmd_listing_push(foreign, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);
}

/* `handle`, of another type, given to the function taking a message. */
static void as_message(void *handle) {
    agentsmd_message *foreign = handle;
    CHECK(agentsmd_message_set(foreign, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);
}

/* Every handle of `handles` given to every type's functions but its own. */
#define TYPES 9
static void cross(void *const handles[TYPES]) {
    void (*const as[TYPES])(void *) = {as_options, as_result,  as_error,   as_buffer, as_document,
                                       as_block,   as_cancel,  as_listing, as_message};
    for (size_t type = 0; type < TYPES; type++) {
        for (size_t other = 0; other < TYPES; other++) {
            if (other != type) {
                as[type](handles[other]);
            }
        }
    }
}

/* Set while the chain whose `list` callback runs the cross calls is running. */
static int crossing;
static int crossed;

/* The file system: `.` holds AGENTS.md, whose content is "x" (onefile.h); listing it passes
 * the listing and the message around while `crossing` is set. */
static uint32_t fs_list(void *userdata, const uint8_t *dir, size_t dir_len,
                        agentsmd_listing *listing, agentsmd_message *message) {
    if (crossing) {
        void *const handles[TYPES] = {options, result, error,   buffer, document,
                                      block,   cancel, listing, message};
        cross(handles);
        crossed = 1;
    }
    return onefile_list(userdata, dir, dir_len, listing, message);
}

static uint32_t fs_open(void *userdata, const uint8_t *name, size_t name_len, void **file_out,
                        agentsmd_message *message) {
    (void)userdata, (void)name, (void)name_len, (void)message;
    static int done;
    done = 0;
    *file_out = &done;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t fs_read(void *userdata, void *file, uint8_t *out, size_t len, size_t *read_out,
                        agentsmd_message *message) {
    (void)userdata, (void)message;
    int *done = file;
    *read_out = 0;
    if (!*done && len > 0) {
        out[0] = 'x';
        *read_out = 1;
        *done = 1;
    }
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static const agentsmd_fs FS = {NULL, fs_list, onefile_stat, fs_open, fs_read, NULL, NULL};

/* The handles of the last `list` and transform callbacks, kept after they returned. */
static agentsmd_listing *kept_listing;
static agentsmd_message *kept_message;
static agentsmd_content *kept_content;
/* How many times each kept handle was used, and refused. */
static int stale_pushes, stale_sets, stale_appends;

/* Uses the kept handles, whose callbacks have returned: each use is refused. */
static void use_kept(void) {
    if (kept_listing != NULL) {
        CHECK(agentsmd_listing_push(kept_listing, (const uint8_t *)"stale", 5) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        stale_pushes++;
    }
    if (kept_message != NULL) {
        CHECK(agentsmd_message_set(kept_message, (const uint8_t *)"stale", 5) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        stale_sets++;
    }
    if (kept_content != NULL) {
        CHECK(agentsmd_content_append(kept_content, (const uint8_t *)"stale", 5) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        stale_appends++;
    }
}

/* A handle lent to a callback, and which. */
enum lent { LISTING, MESSAGE, CONTENT };

/* What the function taking the lent `handle` answers it on a thread of its own. */
struct other_thread {
    void *handle;
    enum lent lent;
    agentsmd_status status;
};

static void *use_on_other_thread(void *arg) {
    struct other_thread *use = arg;
    const uint8_t *x = (const uint8_t *)"x";
    switch (use->lent) {
    case LISTING: use->status = agentsmd_listing_push(use->handle, x, 1); break;
    case MESSAGE: use->status = agentsmd_message_set(use->handle, x, 1); break;
    case CONTENT: use->status = agentsmd_content_append(use->handle, x, 1); break;
    }
    return NULL;
}

/* Whether a handle live on this thread is refused on another. */
static void check_refused_on_other_thread(void *handle, enum lent lent) {
    struct other_thread use = {handle, lent, AGENTSMD_STATUS_OK};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, use_on_other_thread, &use) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(use.status == AGENTSMD_STATUS_INVALID_ARGUMENT);
}

/* The options of the chains below, and whether the first `list` and transform have run. */
static agentsmd_options *keeping;
static int listed, transformed;

/* The file system of FS, using the kept handles in every callback; `list` keeps its listing
 * and its message. The first `list` also tries them on another thread, and runs a nested
 * chain, which keeps its own: after it, the nested ones are refused and these are live. */
static uint32_t keeping_list(void *userdata, const uint8_t *dir, size_t dir_len,
                             agentsmd_listing *listing, agentsmd_message *message) {
    use_kept();
    kept_listing = listing;
    kept_message = message;
    if (!listed) {
        listed = 1;
        check_refused_on_other_thread(listing, LISTING);
        check_refused_on_other_thread(message, MESSAGE);
        /* live: the nested chain's callbacks must not try them */
        kept_listing = NULL;
        kept_message = NULL;
        agentsmd_result *nested = NULL;
        CHECK(agentsmd_chain((const uint8_t *)".", 1, keeping, &nested, NULL) ==
              AGENTSMD_STATUS_OK);
        agentsmd_result_free(nested);
        CHECK(kept_listing != listing && kept_message != message);
        use_kept();
        kept_listing = listing;
        kept_message = message;
    }
    /* Live until it returns, and of any length; dropped, since the call succeeds. */
    CHECK(agentsmd_message_set(message, (const uint8_t *)"unused", 6) == AGENTSMD_STATUS_OK);
    return onefile_list(userdata, dir, dir_len, listing, message);
}

static uint32_t keeping_stat(void *userdata, const uint8_t *name, size_t name_len,
                             uint32_t *kind_out, uint64_t *size_out, agentsmd_message *message) {
    use_kept();
    return onefile_stat(userdata, name, name_len, kind_out, size_out, message);
}

static uint32_t keeping_read(void *userdata, void *file, uint8_t *out, size_t len,
                             size_t *read_out, agentsmd_message *message) {
    use_kept();
    return fs_read(userdata, file, out, len, read_out, message);
}

static const agentsmd_fs KEEPING_FS = {NULL,         keeping_list, keeping_stat, fs_open,
                                       keeping_read, NULL,         NULL};

/* A transform that uses the kept handles, keeps its content, and returns the file as it is. */
static uint32_t keeping_transform(void *userdata, const uint8_t *path, size_t path_len,
                                  const uint8_t *content, size_t content_len,
                                  agentsmd_content *out, agentsmd_message *message) {
    (void)userdata, (void)path, (void)path_len, (void)message;
    use_kept();
    kept_content = out;
    if (!transformed) {
        transformed = 1;
        check_refused_on_other_thread(out, CONTENT);
    }
    CHECK(agentsmd_content_append(out, content, content_len) == AGENTSMD_STATUS_OK);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

/* 320 chains whose callbacks use the handles kept from the ones before, as does the code after
 * each chain: every use is refused, and every chain finds the one file, unchanged. */
static void check_kept_handles_refused(void) {
    keeping = agentsmd_options_new();
    CHECK(keeping != NULL);
    CHECK(agentsmd_options_set_fs(keeping, &KEEPING_FS, NULL) == AGENTSMD_STATUS_OK);
    const agentsmd_transform transform = {NULL, keeping_transform, NULL};
    CHECK(agentsmd_options_set_transform(keeping, &transform, NULL) == AGENTSMD_STATUS_OK);
    for (int i = 0; i < 320; i++) {
        agentsmd_result *found = NULL;
        CHECK(agentsmd_chain((const uint8_t *)".", 1, keeping, &found, NULL) ==
              AGENTSMD_STATUS_OK);
        CHECK(agentsmd_result_file_count(found) == 1);
        agentsmd_file file;
        CHECK(agentsmd_result_file(found, 0, &file, NULL) == AGENTSMD_STATUS_OK);
        CHECK_BYTES(file.content, "x");
        agentsmd_result_free(found);
        use_kept();
    }
    /* Used in each chain after the first by list, stat, read and the transform, and after it. */
    CHECK(stale_pushes >= 319 * 5 && stale_sets >= 319 * 5 && stale_appends >= 319 * 5);
    agentsmd_options_free(keeping);
    use_kept();
}

/* Whether every handle still works as its own type after the foreign calls. */
static void check_intact(void) {
    CHECK(agentsmd_result_file_count(result) == 1);
    agentsmd_file file;
    CHECK(agentsmd_result_file(result, 0, &file, NULL) == AGENTSMD_STATUS_OK);
    CHECK_BYTES(file.content, "x");
    CHECK(agentsmd_error_status(error) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK_CONTAINS(agentsmd_error_message(error), "confine");
    CHECK(agentsmd_buffer_len(buffer) > 0 && agentsmd_buffer_data(buffer) != NULL);
    CHECK(agentsmd_document_unit_count(document) == 1);
    CHECK(agentsmd_block_len(block) > 0 && agentsmd_block_cap(block) > 0);
    CHECK(agentsmd_cancel_request(cancel) == AGENTSMD_STATUS_OK);
    agentsmd_result *again = NULL;
    CHECK(agentsmd_chain((const uint8_t *)".", 1, options, &again, NULL) == AGENTSMD_STATUS_OK);
    CHECK(agentsmd_result_file_count(again) == 1);
    agentsmd_result_free(again);
}

int main(int argc, char **argv) {
    (void)argc, (void)argv;
    onefile_size = 1;
    options = agentsmd_options_new();
    CHECK(options != NULL);
    CHECK(agentsmd_options_set_fs(options, &FS, NULL) == AGENTSMD_STATUS_OK);
    CHECK(agentsmd_chain((const uint8_t *)".", 1, options, &result, NULL) == AGENTSMD_STATUS_OK);
    CHECK(agentsmd_result_render(result, &buffer, NULL) == AGENTSMD_STATUS_OK);
    CHECK(agentsmd_options_set_confine(options, 2, &error) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(agentsmd_parse((const uint8_t *)"x\n", 2, NULL, 0, NULL, NULL, 0, &document, NULL) ==
          AGENTSMD_STATUS_OK);
    CHECK(agentsmd_document_block(document, NULL, &block, NULL) == AGENTSMD_STATUS_OK);
    cancel = agentsmd_cancel_new();
    CHECK(cancel != NULL);

    /* The listing's turn: a chain whose list callback passes it, and takes the others. */
    crossing = 1;
    agentsmd_result *during = NULL;
    CHECK(agentsmd_chain((const uint8_t *)".", 1, options, &during, NULL) == AGENTSMD_STATUS_OK);
    crossing = 0;
    CHECK(crossed);
    CHECK(agentsmd_result_file_count(during) == 1);
    agentsmd_result_free(during);
    check_intact();
    check_kept_handles_refused();

    agentsmd_error_free(err);
    agentsmd_buffer_free(buffer);
    agentsmd_block_free(block);
    agentsmd_cancel_free(cancel);
    agentsmd_document_free(document);
    agentsmd_error_free(error);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
    return 0;
}
