/*
 * A custom file system that answers in batches (agentsmd_options_set_batched_fs): a 32-deep
 * chain costs one list_many and one read_many call and no single question, fragments cost no
 * more, each level of imports one more read_many; the result is the one the single questions
 * give; and every misuse of the batch handles fails the batch with a message.
 *
 * Usage: batch [REPO_DIR TEMP_DIR, both unused]
 */

#include "calls.h"
#include "nodes.h"

#define DEPTH 32
#define MAX_NODES 256

enum misuse {
    FINE,
    PUSH_BEYOND,    /* list_many: pushes into a directory index past the last */
    PUSH_BAD_NAME,  /* list_many: pushes "x/y" */
    PUSH_BAD_KIND,  /* list_many: pushes kind 9 */
    SET_TWICE,      /* read_many: sets the first file twice */
    SET_BEYOND,     /* read_many: sets a file index past the last */
    SET_NULL,       /* read_many: sets NULL bytes with a length */
    LIST_NOT_FOUND, /* list_many: answers NOT_FOUND */
    READ_FAILS,     /* read_many: answers ERROR with a message */
    SET_TOO_MUCH,   /* read_many: sets 1000 bytes whatever the limit */
    PUSH_HUGE,      /* list_many: pushes a name of length SIZE_MAX */
    SET_HUGE,       /* read_many: sets bytes of length SIZE_MAX */
};

/* The tree, what each callback was asked, and how the batch callbacks misbehave. */
struct batchfs {
    struct node nodes[MAX_NODES];
    char names[MAX_NODES][160]; /* the nodes' names */
    size_t count;
    int lists, stats, opens, list_manys, read_manys, releases;
    size_t listed_dirs, read_files; /* names asked in all batches */
    enum misuse misuse;
    const char *link; /* a name whose listing says only that it is a link */
    agentsmd_listings *stale_listings;
    agentsmd_reads *stale_reads;
};

static void add(struct batchfs *fs, const char *name, const char *content) {
    CHECK(fs->count < MAX_NODES);
    FORMAT(fs->names[fs->count], sizeof fs->names[0], "%s", name);
    struct node *node = &fs->nodes[fs->count];
    node->name = fs->names[fs->count++];
    node->kind = content ? AGENTSMD_ENTRY_KIND_FILE : AGENTSMD_ENTRY_KIND_DIR;
    node->content = content;
}

static const struct node *find(const struct batchfs *fs, const uint8_t *name, size_t len) {
    return node_find(fs->nodes, fs->count, name, len);
}

/* The tree: a root and DEPTH directories d1/…/d32, each with an AGENTS.md; with `imports`,
 * each AGENTS.md imports one.md, which imports two.md. */
static void build(struct batchfs *fs, int imports) {
    memset(fs, 0, sizeof *fs);
    char dir[160] = "";
    add(fs, ".", NULL);
    add(fs, "AGENTS.md", imports ? "root\n@one.md\n" : "root\n");
    if (imports) {
        add(fs, "one.md", "one\n@two.md\n");
        add(fs, "two.md", "two\n");
    }
    for (int d = 1; d <= DEPTH; d++) {
        char element[8];
        FORMAT(element, sizeof element, "%sd%d", d > 1 ? "/" : "", d);
        CHECK(strlen(dir) + strlen(element) < sizeof dir);
        strcat(dir, element);
        add(fs, dir, NULL);
        char file[200];
        FORMAT(file, sizeof file, "%s/AGENTS.md", dir);
        add(fs, file, imports ? "level\n@one.md\n" : "level\n");
        if (imports) {
            FORMAT(file, sizeof file, "%s/one.md", dir);
            add(fs, file, "one\n@two.md\n");
            FORMAT(file, sizeof file, "%s/two.md", dir);
            add(fs, file, "two\n");
        }
    }
}

static uint32_t fs_list(void *userdata, const uint8_t *dir, size_t dir_len,
                        agentsmd_listing *listing, agentsmd_message *message) {
    struct batchfs *fs = userdata;
    (void)message;
    fs->lists++;
    const struct node *node = find(fs, dir, dir_len);
    if (node == NULL || node->kind != AGENTSMD_ENTRY_KIND_DIR) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    nodes_list(fs->nodes, fs->count, dir, dir_len, listing);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t fs_stat(void *userdata, const uint8_t *name, size_t name_len, uint32_t *kind_out,
                        uint64_t *size_out, agentsmd_message *message) {
    struct batchfs *fs = userdata;
    (void)message;
    fs->stats++;
    const struct node *node = find(fs, name, name_len);
    if (node == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *kind_out = node->kind;
    *size_out = node->content ? strlen(node->content) : 0;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t fs_open(void *userdata, const uint8_t *name, size_t name_len, void **file_out,
                        agentsmd_message *message) {
    struct batchfs *fs = userdata;
    (void)message;
    fs->opens++;
    const struct node *node = find(fs, name, name_len);
    if (node == NULL || node->content == NULL) {
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    }
    *file_out = handle_open(node);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t fs_read(void *userdata, void *file, uint8_t *buffer, size_t buffer_len,
                        size_t *read_out, agentsmd_message *message) {
    (void)userdata;
    (void)message;
    *read_out = handle_read(file, buffer, buffer_len);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static void fs_close(void *userdata, void *file) {
    (void)userdata;
    free(file);
}

static void fs_release(void *userdata) {
    ((struct batchfs *)userdata)->releases++;
}

static uint32_t fs_list_many(void *userdata, const agentsmd_bytes *dirs, size_t dirs_len,
                             agentsmd_listings *listings, agentsmd_message *message) {
    struct batchfs *fs = userdata;
    fs->list_manys++;
    fs->listed_dirs += dirs_len;
    fs->stale_listings = listings;
    switch (fs->misuse) {
    case PUSH_BEYOND:
        CHECK(agentsmd_listings_push(listings, dirs_len, (const uint8_t *)"x", 1,
                                     AGENTSMD_ENTRY_KIND_DIR, 0) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        return AGENTSMD_CALLBACK_STATUS_OK;
    case PUSH_BAD_NAME:
        CHECK(agentsmd_listings_push(listings, 0, (const uint8_t *)"x/y", 3,
                                     AGENTSMD_ENTRY_KIND_DIR, 0) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        return AGENTSMD_CALLBACK_STATUS_OK;
    case PUSH_BAD_KIND:
        CHECK(agentsmd_listings_push(listings, 0, (const uint8_t *)"x", 1, 9, 0) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        return AGENTSMD_CALLBACK_STATUS_OK;
    case PUSH_HUGE:
        CHECK(agentsmd_listings_push(listings, 0, (const uint8_t *)"x", SIZE_MAX,
                                     AGENTSMD_ENTRY_KIND_DIR, 0) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        return AGENTSMD_CALLBACK_STATUS_OK;
    case LIST_NOT_FOUND:
        return AGENTSMD_CALLBACK_STATUS_NOT_FOUND;
    default:
        break;
    }
    /* The handles of the other batch, and NULL, are refused. */
    CHECK(agentsmd_reads_set((agentsmd_reads *)listings, 0, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(agentsmd_listings_found(NULL, 0) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    (void)message;
    for (size_t d = 0; d < dirs_len; d++) {
        const struct node *dir = find(fs, dirs[d].ptr, dirs[d].len);
        if (dir == NULL || dir->kind != AGENTSMD_ENTRY_KIND_DIR) {
            continue; /* not found: nothing said */
        }
        CHECK(agentsmd_listings_found(listings, d) == AGENTSMD_STATUS_OK);
        for (size_t i = 0; i < fs->count; i++) {
            const struct node *node = &fs->nodes[i];
            const char *base = node_base_in(node, dirs[d].ptr, dirs[d].len);
            if (base == NULL) {
                continue;
            }
            int link = fs->link && strcmp(node->name, fs->link) == 0;
            uint32_t kind = link ? AGENTSMD_ENTRY_KIND_LINK : node->kind;
            uint64_t size = node->content ? strlen(node->content) : 0;
            CHECK(agentsmd_listings_push(listings, d, (const uint8_t *)base, strlen(base), kind,
                                         size) == AGENTSMD_STATUS_OK);
        }
    }
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static uint32_t fs_read_many(void *userdata, const agentsmd_bytes *names, size_t names_len,
                             uint64_t limit, agentsmd_reads *reads, agentsmd_message *message) {
    struct batchfs *fs = userdata;
    fs->read_manys++;
    fs->read_files += names_len;
    fs->stale_reads = reads;
    static char thousand[1000];
    switch (fs->misuse) {
    case SET_TWICE:
        CHECK(agentsmd_reads_set(reads, 0, (const uint8_t *)"a", 1) == AGENTSMD_STATUS_OK);
        CHECK(agentsmd_reads_set(reads, 0, (const uint8_t *)"b", 1) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        return AGENTSMD_CALLBACK_STATUS_OK;
    case SET_BEYOND:
        CHECK(agentsmd_reads_set(reads, names_len, (const uint8_t *)"a", 1) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        return AGENTSMD_CALLBACK_STATUS_OK;
    case SET_NULL:
        CHECK(agentsmd_reads_set(reads, 0, NULL, 1) == AGENTSMD_STATUS_INVALID_ARGUMENT);
        return AGENTSMD_CALLBACK_STATUS_OK;
    case SET_HUGE:
        CHECK(agentsmd_reads_set(reads, 0, (const uint8_t *)"x", SIZE_MAX) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        return AGENTSMD_CALLBACK_STATUS_OK;
    case READ_FAILS:
        SET_MESSAGE(message, "the server is gone");
        return AGENTSMD_CALLBACK_STATUS_ERROR;
    case SET_TOO_MUCH:
        memset(thousand, 'x', sizeof thousand);
        CHECK(limit < sizeof thousand);
        CHECK(agentsmd_reads_set(reads, 0, (const uint8_t *)thousand, sizeof thousand) ==
              AGENTSMD_STATUS_OK);
        return AGENTSMD_CALLBACK_STATUS_OK;
    default:
        break;
    }
    CHECK(agentsmd_listings_push((agentsmd_listings *)reads, 0, (const uint8_t *)"x", 1,
                                 AGENTSMD_ENTRY_KIND_DIR, 0) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    for (size_t i = 0; i < names_len; i++) {
        const struct node *node = find(fs, names[i].ptr, names[i].len);
        if (node == NULL || node->content == NULL) {
            continue; /* not found: nothing set */
        }
        size_t len = strlen(node->content);
        CHECK(len < limit);
        CHECK(agentsmd_reads_set(reads, i, (const uint8_t *)node->content, len) ==
              AGENTSMD_STATUS_OK);
    }
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static const agentsmd_fs CALLBACKS = {NULL, fs_list, fs_stat, fs_open, fs_read, fs_close,
                                      fs_release};

/* Options over `fs`, asked in batches by the callbacks of `batch` (NULL: one at a time). */
static agentsmd_options *options_over(struct batchfs *fs, const agentsmd_fs_batch *batch) {
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    agentsmd_fs callbacks = CALLBACKS;
    callbacks.userdata = fs;
    SUCCEEDS(agentsmd_options_set_batched_fs(options, &callbacks, batch, &err));
    return options;
}

/* The rendering of the chain of `path` over `options`, newly allocated; its file count in
 * `*files`. */
static char *rendering(const agentsmd_options *options, const char *path, size_t *files) {
    agentsmd_result *result = NULL;
    SUCCEEDS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err));
    *files = agentsmd_result_file_count(result);
    agentsmd_buffer *buffer = NULL;
    SUCCEEDS(agentsmd_result_render(result, &buffer, &err));
    size_t len = agentsmd_buffer_len(buffer);
    char *text = malloc(len + 1);
    CHECK(text != NULL);
    memcpy(text, agentsmd_buffer_data(buffer), len);
    text[len] = '\0';
    agentsmd_buffer_free(buffer);
    agentsmd_result_free(result);
    return text;
}

static const agentsmd_fs_batch BATCH = {fs_list_many, fs_read_many};

/* The path of the deepest directory, and a file in it. */
static char deepest[DEPTH * 5], deepest_file[DEPTH * 5 + 16];

/* The rendering of the chain of `path` over `fs`, asked by the callbacks of `batch` (NULL: one
 * question at a time), with the options `more` sets; its file count in `*files`. */
static char *chain_over(struct batchfs *fs, const agentsmd_fs_batch *batch, const char *path,
                        void (*more)(agentsmd_options *), size_t *files) {
    agentsmd_options *options = options_over(fs, batch);
    if (more) {
        more(options);
    }
    char *text = rendering(options, path, files);
    agentsmd_options_free(options);
    return text;
}

/* `path` over `fs` in batches gives what it gives one question at a time, `want_files` files,
 * with `list_manys` and `read_manys` batches. */
static void same_in_batches(struct batchfs *fs, const agentsmd_fs_batch *batch, const char *path,
                            size_t want_files, int list_manys, int read_manys,
                            void (*more)(agentsmd_options *)) {
    size_t single_files = 0, got_files = 0;
    char *want = chain_over(fs, NULL, path, more, &single_files);
    fs->lists = fs->stats = fs->opens = fs->list_manys = fs->read_manys = 0;
    char *got = chain_over(fs, batch, path, more, &got_files);
    CHECK(single_files == want_files && got_files == want_files);
    CHECK(strcmp(got, want) == 0);
    CHECK(fs->list_manys == list_manys);
    CHECK(fs->read_manys == read_manys);
    free(got);
    free(want);
}

static void with_fragments(agentsmd_options *options) {
    agentsmd_bytes fragments[] = {str("AGENTS.d")};
    SUCCEEDS(agentsmd_options_set_fragments(options, fragments, 1, &err));
}

static void with_imports(agentsmd_options *options) {
    SUCCEEDS(agentsmd_options_set_imports(options, 1, &err));
    SUCCEEDS(agentsmd_options_set_max_imports(options, 200, &err));
}

/* The chain of `path` fails with an FS error whose message holds `part`. */
static void batch_fails(struct batchfs *fs, enum misuse misuse, const char *part) {
    fs->misuse = misuse;
    agentsmd_options *options = options_over(fs, &BATCH);
    SUCCEEDS(agentsmd_options_set_max_bytes(options, 100, &err));
    agentsmd_result *result = SENTINEL;
    FAILS(agentsmd_chain((const uint8_t *)deepest, strlen(deepest), options, &result, &err),
          misuse == SET_TOO_MUCH ? AGENTSMD_STATUS_TOO_LARGE : AGENTSMD_STATUS_FS);
    CHECK(result == SENTINEL);
    CHECK_CONTAINS(agentsmd_error_message(err), part);
    agentsmd_options_free(options);
    fs->misuse = FINE;
}

int main(void) {
    static struct batchfs fs;
    deepest[0] = '\0';
    for (int d = 1; d <= DEPTH; d++) {
        char element[8];
        FORMAT(element, sizeof element, "%sd%d", d > 1 ? "/" : "", d);
        strcat(deepest, element);
    }
    FORMAT(deepest_file, sizeof deepest_file, "%s/main.go", deepest);

    /* A 32-deep chain: one listing, one read, no single question; at a directory, at a file,
     * at a name that does not exist. */
    build(&fs, 0);
    char file_path[sizeof deepest_file];
    FORMAT(file_path, sizeof file_path, "%s", deepest_file);
    add(&fs, file_path, "package main\n");
    same_in_batches(&fs, &BATCH, deepest, DEPTH + 1, 1, 1, NULL);
    CHECK(fs.lists == 0 && fs.stats == 0 && fs.opens == 0);
    same_in_batches(&fs, &BATCH, deepest_file, DEPTH + 1, 1, 1, NULL);
    CHECK(fs.lists == 0 && fs.stats == 0 && fs.opens == 0);
    FORMAT(file_path, sizeof file_path, "%s/new.go", deepest);
    same_in_batches(&fs, &BATCH, file_path, DEPTH + 1, 1, 1, NULL);
    CHECK(fs.lists == 0 && fs.stats == 0 && fs.opens == 0);

    /* Fragments cost no more batches. */
    add(&fs, "AGENTS.d", NULL);
    add(&fs, "AGENTS.d/b.md", "b\n");
    add(&fs, "AGENTS.d/a.md", "a\n");
    add(&fs, "d1/d2/AGENTS.d", NULL);
    add(&fs, "d1/d2/AGENTS.d/c.md", "c\n");
    same_in_batches(&fs, &BATCH, deepest, DEPTH + 1 + 3, 1, 1, with_fragments);
    CHECK(fs.lists == 0 && fs.stats == 0 && fs.opens == 0);

    /* A link costs one stat; reads one at a time where read_many is NULL. */
    fs.link = "d1/AGENTS.md";
    same_in_batches(&fs, &BATCH, deepest, DEPTH + 1, 1, 1, NULL);
    CHECK(fs.lists == 0 && fs.stats == 1 && fs.opens == 0);
    fs.link = NULL;
    const agentsmd_fs_batch lists_only = {fs_list_many, NULL};
    same_in_batches(&fs, &lists_only, deepest, DEPTH + 1, 1, 0, NULL);
    CHECK(fs.lists == 0 && fs.stats == 0 && fs.opens == DEPTH + 1);

    /* Each level of imports is one more read. */
    build(&fs, 1);
    same_in_batches(&fs, &BATCH, deepest, DEPTH + 1, 1, 3, with_imports);
    CHECK(fs.lists == 0 && fs.stats == 0 && fs.opens == 0);

    /* The handles of a batch are refused once its callback has returned. */
    CHECK(agentsmd_listings_push(fs.stale_listings, 0, (const uint8_t *)"x", 1,
                                 AGENTSMD_ENTRY_KIND_DIR, 0) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(agentsmd_listings_found(fs.stale_listings, 0) == AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(agentsmd_reads_set(fs.stale_reads, 0, (const uint8_t *)"x", 1) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);

    /* Every misuse fails the batch, and the chain with it, saying what was refused. */
    build(&fs, 0);
    batch_fails(&fs, PUSH_BEYOND, "callback listed directory index");
    batch_fails(&fs, PUSH_BAD_NAME, "not one path element");
    batch_fails(&fs, PUSH_BAD_KIND, "kind 9, which is no agentsmd_entry_kind");
    batch_fails(&fs, LIST_NOT_FOUND, "not found for the whole");
    batch_fails(&fs, SET_TWICE, "callback set file 0 twice");
    batch_fails(&fs, SET_BEYOND, "callback set file index");
    batch_fails(&fs, SET_NULL, "NULL with a length");
    /* A length no buffer has is said as what it is, not as a NULL. */
    char huge[80];
    FORMAT(huge, sizeof huge, "length %llu, larger than any buffer",
           (unsigned long long)SIZE_MAX);
    batch_fails(&fs, PUSH_HUGE, huge);
    batch_fails(&fs, SET_HUGE, huge);
    batch_fails(&fs, READ_FAILS, "the server is gone");
    /* Bytes past the limit are dropped: the file is too large, as read one at a time. */
    batch_fails(&fs, SET_TOO_MUCH, "AGENTS.md");

    /* A batch needs a file system; the release runs once per file system set. */
    agentsmd_options *options = agentsmd_options_new();
    INVALID(agentsmd_options_set_batched_fs(options, NULL, &BATCH, &err));
    SUCCEEDS(agentsmd_options_set_batched_fs(options, NULL, NULL, &err));
    agentsmd_fs missing = CALLBACKS;
    missing.userdata = &fs;
    missing.list = NULL;
    INVALID(agentsmd_options_set_batched_fs(options, &missing, &BATCH, &err));
    fs.releases = 0;
    agentsmd_fs callbacks = CALLBACKS;
    callbacks.userdata = &fs;
    SUCCEEDS(agentsmd_options_set_batched_fs(options, &callbacks, &BATCH, &err));
    agentsmd_options_free(options);
    CHECK(fs.releases == 1);

    agentsmd_error_free(err);
    printf("batch: ok\n");
    return 0;
}
