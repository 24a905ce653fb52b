/*
 * Every handle type passed to every other type's functions: each refuses it (an error, or the
 * answer it gives NULL), frees nothing, and reads no byte past the handle it was given. Run
 * under valgrind (tests/ffi.rs) and AddressSanitizer (tests/hardening/sanitizers.rs), which see
 * an invalid read where a check would look for its tag beyond a smaller handle's end.
 *
 * The listing is live only during a `list` callback, so it is passed around from within one.
 *
 * Usage: handles REPO_DIR TEMP_DIR (neither is used: the file system is in memory)
 */

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
        CHECK(agentsmd_error_kind(err) == AGENTSMD_STATUS_INVALID_ARGUMENT);         \
    } while (0)

/* One handle of every type, live while the foreign calls run. */
static agentsmd_options *options;
static agentsmd_result *result;
static agentsmd_error *error;
static agentsmd_buffer *buffer;
static agentsmd_document *document;
static agentsmd_block_result *block;

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
    CHECK(agentsmd_error_kind(foreign) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(strcmp(agentsmd_error_message(foreign), "") == 0);
    CHECK(agentsmd_error_os_code(foreign) == 0);
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
    agentsmd_block_result *block_out = SENTINEL;
    INVALID(agentsmd_block(foreign, NULL, &block_out, &err));
    CHECK(block_out == SENTINEL);
    agentsmd_document_free(foreign);
}

/* `handle`, of another type, given to every function taking a block result. */
static void as_block(void *handle) {
    agentsmd_block_result *foreign = handle;
    CHECK(agentsmd_block_result_data(foreign) == NULL);
    CHECK(agentsmd_block_result_len(foreign) == 0);
    CHECK(agentsmd_block_result_cap(foreign) == 0);
    CHECK(agentsmd_block_result_dropped_count(foreign) == 0);
    agentsmd_dropped dropped;
    INVALID(agentsmd_block_result_dropped(foreign, 0, &dropped, &err));
    agentsmd_block_result_free(foreign);
}

/* `handle`, of another type, given to the function taking a listing. */
static void as_listing(void *handle) {
    agentsmd_listing *foreign = handle;
    CHECK(agentsmd_listing_push(foreign, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);
}

/* Every handle of `handles` given to every type's functions but its own. */
#define TYPES 7
static void cross(void *const handles[TYPES]) {
    void (*const as[TYPES])(void *) = {as_options, as_result,   as_error,  as_buffer,
                                       as_document, as_block, as_listing};
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
 * the listing around while `crossing` is set. */
static uint32_t fs_list(void *userdata, const uint8_t *dir, size_t dir_len,
                        agentsmd_listing *listing, char *message, size_t capacity) {
    if (crossing) {
        void *const handles[TYPES] = {options, result, error, buffer, document, block, listing};
        cross(handles);
        crossed = 1;
    }
    return onefile_list(userdata, dir, dir_len, listing, message, capacity);
}

static uint32_t fs_open(void *userdata, const uint8_t *name, size_t name_len, void **file_out,
                        char *message, size_t capacity) {
    (void)userdata, (void)name, (void)name_len, (void)message, (void)capacity;
    static int done;
    done = 0;
    *file_out = &done;
    return AGENTSMD_FS_STATUS_OK;
}

static uint32_t fs_read(void *userdata, void *file, uint8_t *out, size_t len, size_t *read_out,
                        char *message, size_t capacity) {
    (void)userdata, (void)message, (void)capacity;
    int *done = file;
    *read_out = 0;
    if (!*done && len > 0) {
        out[0] = 'x';
        *read_out = 1;
        *done = 1;
    }
    return AGENTSMD_FS_STATUS_OK;
}

static const agentsmd_fs FS = {NULL, fs_list, onefile_stat, fs_open, fs_read, NULL, NULL};

/* Whether every handle still works as its own type after the foreign calls. */
static void check_intact(void) {
    CHECK(agentsmd_result_file_count(result) == 1);
    agentsmd_file file;
    CHECK(agentsmd_result_file(result, 0, &file, NULL) == AGENTSMD_STATUS_OK);
    CHECK_BYTES(file.content, "x");
    CHECK(agentsmd_error_kind(error) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK_CONTAINS(agentsmd_error_message(error), "confine");
    CHECK(agentsmd_buffer_len(buffer) > 0 && agentsmd_buffer_data(buffer) != NULL);
    CHECK(agentsmd_document_unit_count(document) == 1);
    CHECK(agentsmd_block_result_len(block) > 0 && agentsmd_block_result_cap(block) > 0);
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
    CHECK(agentsmd_block(document, NULL, &block, NULL) == AGENTSMD_STATUS_OK);

    /* The listing's turn: a chain whose list callback passes it, and takes the others. */
    crossing = 1;
    agentsmd_result *during = NULL;
    CHECK(agentsmd_chain((const uint8_t *)".", 1, options, &during, NULL) == AGENTSMD_STATUS_OK);
    crossing = 0;
    CHECK(crossed);
    CHECK(agentsmd_result_file_count(during) == 1);
    agentsmd_result_free(during);
    check_intact();

    agentsmd_error_free(err);
    agentsmd_buffer_free(buffer);
    agentsmd_block_result_free(block);
    agentsmd_document_free(document);
    agentsmd_error_free(error);
    agentsmd_result_free(result);
    agentsmd_options_free(options);
    return 0;
}
