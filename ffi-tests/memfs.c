/*
 * A custom file system written in C, in memory, through agentsmd_options_set_fs: what the
 * library asks of the callbacks and what it makes of their answers.
 *
 * The file system is a static table of entries. A directory's or file's `mode` makes a callback
 * misbehave in one way, so each failure has its own directory.
 *
 * Usage: memfs [REPO_DIR TEMP_DIR, both unused]
 */

#include "check.h"

enum mode {
    NORMAL,
    LIST_FAILS,        /* list: ERROR with a message, set twice */
    LIST_FAILS_MUTE,   /* list: ERROR without a message */
    LIST_FAILS_LOUD,   /* list: ERROR with a message of LOUD_LEN bytes */
    LIST_BAD_STATUS,   /* list: a status that is no agentsmd_callback_status */
    LIST_BAD_NAMES,    /* list: pushes names that are not one path element, then says OK */
    LIST_NULL_NAME,    /* list: pushes only a NULL name with a length, then says OK */
    LIST_NESTED_CHAIN, /* list: runs another chain on the same options from the callback */
    STAT_NOT_FOUND,    /* stat: NOT_FOUND although the directory lists it */
    STAT_BAD_KIND,     /* stat: a kind that is no agentsmd_entry_kind */
    OPEN_NOT_FOUND,    /* open: NOT_FOUND although stat found a file */
    READ_OVERFLOW,     /* read: reports one byte more than the buffer holds */
};

struct entry {
    const char *name;
    uint32_t kind;
    const char *content;
    enum mode mode;
    int64_t reported; /* the size stat reports; -1 for the content's */
};

#define TEN "0123456789"
/* The length of the message of LIST_FAILS_LOUD: no buffer of the library's bounds it. */
#define LOUD_LEN 100000
#define HUNDRED TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN
#define DIR_(name, mode) {name, AGENTSMD_ENTRY_KIND_DIR, NULL, mode, 0}
#define FILE_(name, content, mode) {name, AGENTSMD_ENTRY_KIND_FILE, content, mode, -1}

static const struct entry ENTRIES[] = {
    DIR_(".", NORMAL),
    FILE_("AGENTS.md", "root\n", NORMAL),
    DIR_("a", NORMAL),
    FILE_("a/AGENTS.md", "a\n", NORMAL),
    DIR_("a/b", NORMAL),
    FILE_("a/b/agents.md", "lower\n", NORMAL), /* a case variant of AGENTS.md */
    DIR_("a/b/c", NORMAL),
    DIR_("a/b/c/AGENTS.md", NORMAL), /* a directory: no file */
    DIR_("a/b/c/d", NORMAL),
    FILE_("a/b/c/d/AGENTS.md", "d\n", NORMAL),
    DIR_("big", NORMAL),
    FILE_("big/AGENTS.md", HUNDRED, NORMAL),
    DIR_("exact", NORMAL),
    FILE_("exact/AGENTS.md", TEN, NORMAL),
    DIR_("liar", NORMAL),
    {"liar/AGENTS.md", AGENTSMD_ENTRY_KIND_FILE, HUNDRED, NORMAL, 2}, /* stat says 2, reads 100 */
    DIR_("empty", NORMAL),
    FILE_("empty/AGENTS.md", "", NORMAL),
    DIR_("broken", LIST_FAILS),
    DIR_("mute", LIST_FAILS_MUTE),
    DIR_("loud", LIST_FAILS_LOUD),
    DIR_("status", LIST_BAD_STATUS),
    DIR_("names", LIST_BAD_NAMES),
    DIR_("nullname", LIST_NULL_NAME),
    DIR_("nest", LIST_NESTED_CHAIN),
    DIR_("ghost", NORMAL),
    FILE_("ghost/AGENTS.md", "boo\n", STAT_NOT_FOUND),
    DIR_("weird", NORMAL),
    FILE_("weird/AGENTS.md", "?\n", STAT_BAD_KIND),
    DIR_("vanish", NORMAL),
    FILE_("vanish/AGENTS.md", "gone\n", OPEN_NOT_FOUND),
    FILE_("vanish/FALLBACK.md", "fallback\n", NORMAL),
    DIR_("over", NORMAL),
    FILE_("over/AGENTS.md", "over\n", READ_OVERFLOW),
};
#define ENTRY_COUNT (sizeof ENTRIES / sizeof ENTRIES[0])

/* What the callbacks saw, per file system. */
struct memfs {
    int lists, stats, opens, closes, releases;
    /* The most bytes of one file asked for: bytes already returned plus the buffer's length. */
    size_t most_asked;
    /* What agentsmd_listing_push answered in LIST_BAD_NAMES. */
    agentsmd_status pushed[5];
    /* For LIST_NESTED_CHAIN: the options the chain runs on, and what the nested chain found. */
    const agentsmd_options *options;
    size_t nested_files;
    /* Without a close callback, open hands out this handle instead of allocating one. */
    int no_close;
    struct handle {
        const struct entry *entry;
        size_t at;
    } inline_handle;
};

static const struct entry *find(const uint8_t *name, size_t len) {
    for (size_t i = 0; i < ENTRY_COUNT; i++) {
        if (bytes_equal(name, len, ENTRIES[i].name)) {
            return &ENTRIES[i];
        }
    }
    return NULL;
}

/* Whether `entry` is directly in the directory `dir`; its name in it in `*base`. */
static int is_in(const struct entry *entry, const uint8_t *dir, size_t dir_len, const char **base) {
    const char *slash = strrchr(entry->name, '/');
    if (strcmp(entry->name, ".") == 0) {
        return 0;
    }
    if (slash == NULL) {
        *base = entry->name;
        return bytes_equal(dir, dir_len, ".");
    }
    *base = slash + 1;
    return (size_t)(slash - entry->name) == dir_len && memcmp(entry->name, dir, dir_len) == 0;
}

static uint32_t memfs_list(void *userdata, const uint8_t *dir, size_t dir_len,
                           agentsmd_listing *listing, agentsmd_message *message) {
    struct memfs *fs = userdata;
    fs->lists++;
    const struct entry *entry = find(dir, dir_len);
    if (entry == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    CHECK(entry->kind == AGENTSMD_ENTRY_KIND_DIR); /* the library lists only directories of the walk */
    switch (entry->mode) {
    case LIST_FAILS:
        SET_MESSAGE(message, "smoke");
        SET_MESSAGE(message, "disk on fire"); /* replaces the first */
        return AGENTSMD_CALLBACK_STATUS_ERROR;
    case LIST_FAILS_MUTE:
        return AGENTSMD_CALLBACK_STATUS_ERROR;
    case LIST_FAILS_LOUD: {
        char *loud = malloc(LOUD_LEN);
        CHECK(loud != NULL);
        memset(loud, 'x', LOUD_LEN);
        loud[LOUD_LEN - 1] = '!';
        CHECK(agentsmd_message_set(message, (const uint8_t *)loud, LOUD_LEN) ==
              AGENTSMD_STATUS_OK);
        free(loud); /* copied */
        CHECK(agentsmd_message_set(message, NULL, 1) == AGENTSMD_STATUS_INVALID_ARGUMENT);
        CHECK(agentsmd_message_set(NULL, (const uint8_t *)"x", 1) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        CHECK(agentsmd_message_set((agentsmd_message *)listing, (const uint8_t *)"x", 1) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        CHECK(agentsmd_listing_push((agentsmd_listing *)message, (const uint8_t *)"x", 1) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        return AGENTSMD_CALLBACK_STATUS_ERROR;
    }
    case LIST_BAD_STATUS:
        return 42;
    case LIST_BAD_NAMES:
        fs->pushed[0] = agentsmd_listing_push(listing, (const uint8_t *)"fine", 4);
        fs->pushed[1] = agentsmd_listing_push(listing, (const uint8_t *)"x/y", 3);
        fs->pushed[2] = agentsmd_listing_push(listing, (const uint8_t *)"", 0);
        fs->pushed[3] = agentsmd_listing_push(listing, (const uint8_t *)"a\0b", 3);
        fs->pushed[4] = agentsmd_listing_push(listing, NULL, 1);
        return AGENTSMD_CALLBACK_STATUS_OK; /* the listing fails all the same */
    case LIST_NULL_NAME:
        fs->pushed[0] = agentsmd_listing_push(listing, NULL, 1);
        return AGENTSMD_CALLBACK_STATUS_OK; /* the listing fails all the same */
    case LIST_NESTED_CHAIN: {
        agentsmd_result *result = NULL;
        agentsmd_error *err = NULL;
        CHECK_STATUS(agentsmd_chain((const uint8_t *)"a/b/c/d", 7, fs->options, &result, &err),
                     AGENTSMD_STATUS_OK, err);
        fs->nested_files = agentsmd_result_file_count(result);
        agentsmd_result_free(result);
        return AGENTSMD_CALLBACK_STATUS_OK;
    }
    default:
        break;
    }
    const char *base;
    for (size_t i = 0; i < ENTRY_COUNT; i++) {
        if (is_in(&ENTRIES[i], dir, dir_len, &base)) {
            CHECK(agentsmd_listing_push(listing, (const uint8_t *)base, strlen(base)) ==
                  AGENTSMD_STATUS_OK);
        }
    }
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t memfs_stat(void *userdata, const uint8_t *name, size_t name_len, uint32_t *kind_out,
                           uint64_t *size_out, agentsmd_message *message) {
    struct memfs *fs = userdata;
    fs->stats++;
    (void)message;
    const struct entry *entry = find(name, name_len);
    if (entry == NULL || entry->mode == STAT_NOT_FOUND) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *kind_out = entry->mode == STAT_BAD_KIND ? 7 : entry->kind;
    if (entry->kind == AGENTSMD_ENTRY_KIND_FILE) {
        *size_out = entry->reported >= 0 ? (uint64_t)entry->reported : strlen(entry->content);
    } else {
        *size_out = 4096;
    }
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t memfs_open(void *userdata, const uint8_t *name, size_t name_len, void **file_out,
                           agentsmd_message *message) {
    struct memfs *fs = userdata;
    (void)message;
    const struct entry *entry = find(name, name_len);
    if (entry == NULL || entry->mode == OPEN_NOT_FOUND) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    CHECK(entry->kind == AGENTSMD_ENTRY_KIND_FILE); /* nothing is read from a directory */
    struct handle *handle = &fs->inline_handle;
    if (!fs->no_close) {
        handle = malloc(sizeof *handle); /* freed by close: valgrind sees a close missed */
        CHECK(handle != NULL);
    }
    handle->entry = entry;
    handle->at = 0;
    *file_out = handle;
    fs->opens++;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t memfs_read(void *userdata, void *file, uint8_t *buffer, size_t buffer_len,
                           size_t *read_out, agentsmd_message *message) {
    struct memfs *fs = userdata;
    struct handle *handle = file;
    (void)message;
    CHECK(buffer_len > 0);
    if (handle->at + buffer_len > fs->most_asked) {
        fs->most_asked = handle->at + buffer_len;
    }
    if (handle->entry->mode == READ_OVERFLOW) {
        *read_out = buffer_len + 1;
        return AGENTSMD_CALLBACK_STATUS_OK;
    }
    size_t left = strlen(handle->entry->content) - handle->at;
    size_t n = left < buffer_len ? left : buffer_len;
    memcpy(buffer, handle->entry->content + handle->at, n);
    handle->at += n;
    *read_out = n;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static void memfs_close(void *userdata, void *file) {
    struct memfs *fs = userdata;
    free(file);
    fs->closes++;
}

static void memfs_release(void *userdata) {
    struct memfs *fs = userdata;
    fs->releases++;
}

static agentsmd_fs callbacks(struct memfs *state) {
    agentsmd_fs fs = {state,     memfs_list,  memfs_stat,   memfs_open,
                      memfs_read, memfs_close, memfs_release};
    return fs;
}

/* New options on a new memfs `state`. */
static agentsmd_options *options_on(struct memfs *state) {
    memset(state, 0, sizeof *state);
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    agentsmd_fs fs = callbacks(state);
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_fs(options, &fs, &err), AGENTSMD_STATUS_OK, err);
    state->options = options;
    return options;
}

static void set_names(agentsmd_options *options, const char *first, const char *second) {
    agentsmd_bytes names[] = {str(first), str(second ? second : "")};
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_names(options, names, second ? 2 : 1, &err),
                 AGENTSMD_STATUS_OK, err);
}

static void set_root(agentsmd_options *options, const char *root) {
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_root(options, (const uint8_t *)root, strlen(root), &err),
                 AGENTSMD_STATUS_OK, err);
}

static agentsmd_result *chain_at(const char *path, const agentsmd_options *options) {
    agentsmd_result *result = NULL;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK(result != NULL && err == NULL);
    return result;
}

/* The chain at `path` fails with `status`; the error is returned for the caller to check and
 * free, and the result was not written. */
static agentsmd_error *chain_fails(const char *path, size_t path_len,
                                   const agentsmd_options *options, agentsmd_status status) {
    agentsmd_result *result = NULL;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_chain((const uint8_t *)path, path_len, options, &result, &err), status,
                 err);
    CHECK(result == NULL);
    CHECK(err != NULL);
    CHECK(agentsmd_error_status(err) == status);
    CHECK(agentsmd_error_os_code(err) == 0);
    return err;
}

/* `result` holds exactly the files `names` (NULL-terminated), with their content, and nothing
 * omitted. */
static void check_files(const agentsmd_result *result, const char *const *names) {
    size_t count = 0;
    for (; names[count] != NULL; count++) {
        agentsmd_file file;
        agentsmd_error *err = NULL;
        CHECK_STATUS(agentsmd_result_file(result, count, &file, &err), AGENTSMD_STATUS_OK, err);
        CHECK_BYTES(file.path, names[count]);
        const struct entry *entry = find((const uint8_t *)names[count], strlen(names[count]));
        CHECK(entry != NULL);
        CHECK_BYTES(file.content, entry->content);
    }
    CHECK(agentsmd_result_file_count(result) == count);
    CHECK(agentsmd_result_omitted_count(result) == 0);
}

static void expect_files(const char *path, const agentsmd_options *options,
                         const char *const *names) {
    agentsmd_result *result = chain_at(path, options);
    check_files(result, names);
    agentsmd_result_free(result);
}

static void test_nested_files(void) {
    struct memfs state;
    agentsmd_options *options = options_on(&state);
    const char *const all[] = {"AGENTS.md", "a/AGENTS.md", "a/b/c/d/AGENTS.md", NULL};
    expect_files("a/b/c/d/new.txt", options, all); /* a file about to be created */
    CHECK(state.opens == 3 && state.closes == 3);
    expect_files("a/b/c/d", options, all); /* a directory */
    expect_files("a/b/c/d/AGENTS.md", options, all); /* an existing file */

    /* a/b lists agents.md, which is not AGENTS.md; a/b/c's AGENTS.md is a directory. */
    const char *const above[] = {"AGENTS.md", "a/AGENTS.md", NULL};
    expect_files("a/b/c/x", options, above);

    /* The root, "." or a name, bounds the walk. */
    const char *const below_a[] = {"a/AGENTS.md", "a/b/c/d/AGENTS.md", NULL};
    set_root(options, "a");
    expect_files("a/b/c/d/new.txt", options, below_a);
    set_root(options, ".");
    expect_files("a/b/c/d/new.txt", options, all);
    const char *const root_only[] = {"AGENTS.md", NULL};
    expect_files(".", options, root_only);

    /* Asked for by its own spelling, the case variant is found. */
    const char *const lower[] = {"a/b/agents.md", NULL};
    set_names(options, "agents.md", NULL);
    expect_files("a/b", options, lower);
    const char *const either[] = {"AGENTS.md", "a/AGENTS.md", "a/b/agents.md", NULL};
    set_names(options, "AGENTS.md", "agents.md");
    expect_files("a/b/new.txt", options, either);

    /* An empty file is a file. */
    set_names(options, "AGENTS.md", NULL);
    const char *const empty[] = {"AGENTS.md", "empty/AGENTS.md", NULL};
    agentsmd_result *result = chain_at("empty/x", options);
    check_files(result, empty);
    agentsmd_buffer *buffer = NULL;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_result_render(result, &buffer, &err), AGENTSMD_STATUS_OK, err);
    const char *expected = "<project_context>\n"
                           "<project_instructions path=\"AGENTS.md\">\nroot\n"
                           "</project_instructions>\n"
                           "<project_instructions path=\"empty/AGENTS.md\">\n\n"
                           "</project_instructions>\n"
                           "</project_context>";
    CHECK(bytes_equal(agentsmd_buffer_data(buffer), agentsmd_buffer_len(buffer), expected));
    agentsmd_buffer_free(buffer);
    agentsmd_result_free(result);

    CHECK(state.opens == state.closes);
    CHECK(state.releases == 0);
    agentsmd_options_free(options);
    CHECK(state.releases == 1);
}

static void test_not_found(void) {
    struct memfs state;
    agentsmd_options *options = options_on(&state);
    const char *const root_only[] = {"AGENTS.md", NULL};
    /* Directories that do not exist list nothing. */
    expect_files("nowhere/deeper/new.txt", options, root_only);
    /* A name listed and then not found by stat is no file, and is not opened. */
    state.opens = state.closes = 0;
    expect_files("ghost/x", options, root_only);
    CHECK(state.opens == 1);
    /* A file not found when opened is no file: the next name stands for the directory. */
    set_names(options, "AGENTS.md", "FALLBACK.md");
    const char *const fallback[] = {"AGENTS.md", "vanish/FALLBACK.md", NULL};
    expect_files("vanish/x", options, fallback);
    CHECK(state.opens == state.closes);
    agentsmd_options_free(options);
    CHECK(state.releases == 1);
}

static void test_callback_failures(void) {
    struct memfs state;
    agentsmd_options *options = options_on(&state);

    /* The message set last, with the callback and the name. */
    agentsmd_error *err = chain_fails("broken/x", 8, options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "disk on fire");
    CHECK_CONTAINS(agentsmd_error_message(err), "list broken");
    CHECK(strstr(agentsmd_error_message(err), "smoke") == NULL);
    agentsmd_error_free(err);

    err = chain_fails("mute/x", 6, options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "mute");
    CHECK_CONTAINS(agentsmd_error_message(err), "callback failed");
    agentsmd_error_free(err);

    /* A message of any length is carried whole. */
    err = chain_fails("loud/x", 6, options, AGENTSMD_STATUS_FS);
    const char *loud = agentsmd_error_message(err);
    CHECK_CONTAINS(loud, "loud");
    size_t loud_len = strlen(loud);
    CHECK(loud_len > LOUD_LEN && loud[loud_len - 1] == '!');
    CHECK(strspn(loud + loud_len - LOUD_LEN, "x") == LOUD_LEN - 1);
    agentsmd_error_free(err);

    /* A status that is no agentsmd_callback_status is a failure. */
    err = chain_fails("status/x", 8, options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "status");
    CHECK_CONTAINS(agentsmd_error_message(err), "42");
    agentsmd_error_free(err);

    /* A kind that is no agentsmd_entry_kind is a failure. */
    err = chain_fails("weird/x", 7, options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "weird/AGENTS.md");
    agentsmd_error_free(err);

    /* A read reporting more bytes than the buffer holds is a failure, and the file is closed. */
    state.opens = state.closes = 0;
    err = chain_fails("over/x", 6, options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "over/AGENTS.md");
    agentsmd_error_free(err);
    CHECK(state.opens == 2 && state.closes == 2);

    /* Names that are not one path element are refused by agentsmd_listing_push, and make the
     * listing fail although the callback says OK. */
    err = chain_fails("names/x", 7, options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "names");
    CHECK(state.pushed[0] == AGENTSMD_STATUS_OK);
    for (size_t i = 1; i < 5; i++) {
        CHECK(state.pushed[i] == AGENTSMD_STATUS_INVALID_ARGUMENT);
    }
    agentsmd_error_free(err);
    err = chain_fails("nullname/x", 10, options, AGENTSMD_STATUS_FS);
    CHECK_CONTAINS(agentsmd_error_message(err), "nullname");
    CHECK(state.pushed[0] == AGENTSMD_STATUS_INVALID_ARGUMENT);
    agentsmd_error_free(err);
    CHECK(agentsmd_listing_push(NULL, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);

    /* A listing error is an error even after the budget has run out. */
    agentsmd_error *set_err = NULL;
    CHECK_STATUS(agentsmd_options_set_budget(options, 1, &set_err), AGENTSMD_STATUS_OK, set_err);
    err = chain_fails("broken/x", 8, options, AGENTSMD_STATUS_FS);
    agentsmd_error_free(err);

    CHECK(state.opens == state.closes);
    agentsmd_options_free(options);
    CHECK(state.releases == 1);
}

static void test_bounds(void) {
    struct memfs state;
    agentsmd_options *options = options_on(&state);
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_options_set_max_bytes(options, 10, &err), AGENTSMD_STATUS_OK, err);

    /* 100 bytes with max_bytes 10: too large, and never more than 11 bytes asked for. */
    err = chain_fails("big/x", 5, options, AGENTSMD_STATUS_TOO_LARGE);
    CHECK_CONTAINS(agentsmd_error_message(err), "big/AGENTS.md");
    agentsmd_error_free(err);
    CHECK(state.most_asked > 0 && state.most_asked <= 11);

    /* The same when stat reported a size that fits. */
    state.most_asked = 0;
    err = chain_fails("liar/x", 6, options, AGENTSMD_STATUS_TOO_LARGE);
    CHECK_CONTAINS(agentsmd_error_message(err), "liar/AGENTS.md");
    agentsmd_error_free(err);
    CHECK(state.most_asked > 0 && state.most_asked <= 11);

    /* A file of exactly max_bytes is fine. */
    state.most_asked = 0;
    const char *const exact[] = {"AGENTS.md", "exact/AGENTS.md", NULL};
    expect_files("exact/x", options, exact);
    CHECK(state.most_asked > 0 && state.most_asked <= 11);
    CHECK(state.opens == state.closes);

    /* A file that reads more than its stat said, and more than the budget left, is left out
     * with the size it read. */
    CHECK_STATUS(agentsmd_options_set_max_bytes(options, 0, &err), AGENTSMD_STATUS_OK, err);
    CHECK_STATUS(agentsmd_options_set_budget(options, 10, &err), AGENTSMD_STATUS_OK, err);
    agentsmd_result *result = chain_at("liar/x", options);
    CHECK(agentsmd_result_file_count(result) == 1);
    CHECK(agentsmd_result_omitted_count(result) == 1);
    agentsmd_omitted omitted;
    CHECK_STATUS(agentsmd_result_omitted(result, 0, &omitted, &err), AGENTSMD_STATUS_OK, err);
    CHECK_BYTES(omitted.path, "liar/AGENTS.md");
    CHECK(omitted.size == 100);
    CHECK(omitted.reason == AGENTSMD_REASON_OVER_BUDGET);
    CHECK_BYTES(omitted.by, "");
    agentsmd_result_free(result);

    CHECK(state.opens == state.closes);
    agentsmd_options_free(options);
    CHECK(state.releases == 1);
}

static void test_release(void) {
    struct memfs first, second;
    agentsmd_error *err = NULL;

    /* Replaced by another file system: the first is released then, the second at the free. */
    agentsmd_options *options = options_on(&first);
    memset(&second, 0, sizeof second);
    agentsmd_fs fs = callbacks(&second);
    CHECK_STATUS(agentsmd_options_set_fs(options, &fs, &err), AGENTSMD_STATUS_OK, err);
    CHECK(first.releases == 1 && second.releases == 0);
    agentsmd_options_free(options);
    CHECK(first.releases == 1 && second.releases == 1);

    /* NULL restores the OS file system, releasing the custom one. */
    options = options_on(&first);
    CHECK_STATUS(agentsmd_options_set_fs(options, NULL, &err), AGENTSMD_STATUS_OK, err);
    CHECK(first.releases == 1);
    agentsmd_options_free(options);
    CHECK(first.releases == 1);

    /* A struct without a required callback is refused: nothing kept, nothing released, and
     * the file system set before stays. */
    options = options_on(&first);
    memset(&second, 0, sizeof second);
    for (int missing = 0; missing < 4; missing++) {
        fs = callbacks(&second);
        switch (missing) {
        case 0: fs.list = NULL; break;
        case 1: fs.stat = NULL; break;
        case 2: fs.open = NULL; break;
        default: fs.read = NULL; break;
        }
        CHECK_STATUS(agentsmd_options_set_fs(options, &fs, &err),
                     AGENTSMD_STATUS_INVALID_ARGUMENT, err);
        CHECK(agentsmd_error_status(err) == AGENTSMD_STATUS_INVALID_ARGUMENT);
        agentsmd_error_free(err);
        err = NULL;
    }
    const char *const root_only[] = {"AGENTS.md", NULL};
    expect_files("x", options, root_only);
    CHECK(first.lists > 0 && second.lists == 0);
    agentsmd_options_free(options);
    CHECK(first.releases == 1 && second.releases == 0);

    /* close and release may be NULL. */
    memset(&second, 0, sizeof second);
    second.no_close = 1;
    fs = callbacks(&second);
    fs.close = NULL;
    fs.release = NULL;
    options = agentsmd_options_new();
    CHECK_STATUS(agentsmd_options_set_fs(options, &fs, &err), AGENTSMD_STATUS_OK, err);
    const char *const all[] = {"AGENTS.md", "a/AGENTS.md", "a/b/c/d/AGENTS.md", NULL};
    expect_files("a/b/c/d/x", options, all);
    agentsmd_options_free(options);
    CHECK(second.opens == 3 && second.closes == 0 && second.releases == 0);
}

static void test_invalid_names(void) {
    struct memfs state;
    agentsmd_options *options = options_on(&state);
    static const struct {
        const char *name;
        size_t len;
    } bad[] = {{"/abs", 4}, {"a/../b", 6}, {"", 0},   {"a/", 2},   {"./a", 3},
               {"a//b", 4}, {"..", 2},     {"a/.", 3}, {"a\0b", 3}, {"/", 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        agentsmd_error *err =
            chain_fails(bad[i].name, bad[i].len, options, AGENTSMD_STATUS_INVALID_ARGUMENT);
        agentsmd_error_free(err);
    }
    /* Refused before any I/O. */
    CHECK(state.lists == 0 && state.stats == 0 && state.opens == 0);

    /* A root that is no valid name, and a path outside the root. */
    set_root(options, "/abs");
    agentsmd_error_free(chain_fails("a", 1, options, AGENTSMD_STATUS_INVALID_ARGUMENT));
    set_root(options, "a");
    agentsmd_error *err = chain_fails("b/x", 3, options, AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK_CONTAINS(agentsmd_error_message(err), "outside");
    agentsmd_error_free(err);
    agentsmd_error_free(chain_fails("ab", 2, options, AGENTSMD_STATUS_INVALID_ARGUMENT));
    agentsmd_error_free(chain_fails(".", 1, options, AGENTSMD_STATUS_INVALID_ARGUMENT));
    CHECK(state.lists == 0 && state.stats == 0 && state.opens == 0);

    agentsmd_options_free(options);
    CHECK(state.releases == 1);
}

static void test_nested_chain(void) {
    struct memfs state;
    agentsmd_options *options = options_on(&state);
    const char *const root_only[] = {"AGENTS.md", NULL};
    expect_files("nest/x", options, root_only);
    CHECK(state.nested_files == 3);
    CHECK(state.opens == state.closes);
    agentsmd_options_free(options);
    CHECK(state.releases == 1);
}

int main(void) {
    test_nested_files();
    test_not_found();
    test_callback_failures();
    test_bounds();
    test_release();
    test_invalid_names();
    test_nested_chain();
    printf("memfs: ok\n");
    return 0;
}
