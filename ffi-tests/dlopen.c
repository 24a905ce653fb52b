/*
 * A plugin host: loads the shared library with dlopen (this program is not linked with it, so
 * a direct call would fail the link), resolves every function the header declares with dlsym,
 * runs a chain on the fixture tree, checks the rendering against the golden file, and dlcloses
 * the library. It does that WORKER_CYCLES times on a second thread while the main thread waits,
 * and the thread then exits: a Rust library that left a thread-local destructor behind and was
 * unmapped would crash that exit. Then MAIN_CYCLES times on the main thread, which lives on
 * until exit(). valgrind (tests/consumers.rs) fails the run on a leak.
 *
 * Whether each dlclose really unmapped the library (glibc keeps a library mapped while a
 * thread holds a thread-local destructor it registered) is written to REPORT_FILE.
 *
 * Usage: dlopen LIBRARY REPO_DIR REPORT_FILE FUNCTION...   (every function the header declares)
 */

#define _GNU_SOURCE /* RTLD_NOLOAD */

#include <dlfcn.h>
#include <pthread.h>

#include "check.h"

/* valgrind translates the library's code afresh after every load, some 0.3 s a cycle; the main
 * thread, which adds only the case of a thread living until exit(), does fewer. */
#define WORKER_CYCLES 100
#define MAIN_CYCLES 10
#define PATH_CAPACITY 4096

/* The functions the chain below calls, typed as the header declares them. __typeof__ only
 * reads the declarations: nothing here refers to the library's symbols at link time. */
#define API(X)                    \
    X(agentsmd_version)           \
    X(agentsmd_options_new)       \
    X(agentsmd_options_free)      \
    X(agentsmd_options_set_root)  \
    X(agentsmd_options_set_names) \
    X(agentsmd_chain)             \
    X(agentsmd_result_file_count) \
    X(agentsmd_result_file)       \
    X(agentsmd_result_free)       \
    X(agentsmd_render)            \
    X(agentsmd_buffer_data)       \
    X(agentsmd_buffer_len)        \
    X(agentsmd_buffer_free)       \
    X(agentsmd_error_message)

struct api {
#define FIELD(name) __typeof__(&name) name;
    API(FIELD)
#undef FIELD
};

static const char *library;
static char tree[PATH_CAPACITY];
static char start[PATH_CAPACITY];
static char **functions;
static int function_count;
static uint8_t golden[4096];
static size_t golden_len;

/* What the cycles of one thread saw: the dlcloses after which the library was still mapped. */
struct tally {
    int cycles, mapped;
};

static void *resolve(void *handle, const char *name) {
    void *symbol = dlsym(handle, name);
    if (symbol == NULL) {
        fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
        exit(1);
    }
    return symbol;
}

/* Checks that `call` succeeded, printing the error through the loaded library otherwise:
 * check.h's CHECK_STATUS would call agentsmd_error_message directly. */
#define CHECK_OK(api, call, err)                                                  \
    do {                                                                          \
        if ((call) != AGENTSMD_STATUS_OK) {                                       \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                    (api)->agentsmd_error_message(err));                          \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

/* The chain with the override names on the fixture tree, rendered with the paths made relative
 * to the tree as a product would show them: the golden rendering, byte for byte. */
static void run_chain(const struct api *api) {
    CHECK(strcmp(api->agentsmd_version(), AGENTSMD_VERSION) == 0);
    agentsmd_options *options = api->agentsmd_options_new();
    CHECK(options != NULL);
    agentsmd_error *err = NULL;
    agentsmd_bytes names[] = {str("AGENTS.override.md"), str("AGENTS.md")};
    CHECK_OK(api, api->agentsmd_options_set_names(options, names, 2, &err), err);
    const uint8_t *root = (const uint8_t *)tree;
    CHECK_OK(api, api->agentsmd_options_set_root(options, root, strlen(tree), &err), err);
    agentsmd_result *result = NULL;
    CHECK_OK(api,
             api->agentsmd_chain((const uint8_t *)start, strlen(start), options, &result, &err),
             err);

    agentsmd_file files[3];
    CHECK(api->agentsmd_result_file_count(result) == 3);
    size_t prefix = strlen(tree) + 1;
    for (size_t i = 0; i < 3; i++) {
        CHECK_OK(api, api->agentsmd_result_file(result, i, &files[i], &err), err);
        CHECK(files[i].path.len > prefix && memcmp(files[i].path.ptr, tree, prefix - 1) == 0);
        files[i].path.ptr += prefix;
        files[i].path.len -= prefix;
    }
    agentsmd_buffer *buffer = NULL;
    CHECK_OK(api, api->agentsmd_render(files, 3, &buffer, &err), err);
    CHECK(api->agentsmd_buffer_len(buffer) == golden_len);
    CHECK(memcmp(api->agentsmd_buffer_data(buffer), golden, golden_len) == 0);
    api->agentsmd_buffer_free(buffer);
    api->agentsmd_result_free(result);
    api->agentsmd_options_free(options);
    CHECK(err == NULL);
}

/* One plugin lifetime: load, resolve everything, run, unload. */
static void cycle(struct tally *tally) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        exit(1);
    }
    for (int i = 0; i < function_count; i++) {
        resolve(handle, functions[i]);
    }
    struct api api;
#define RESOLVE(name)                                \
    do {                                             \
        void *symbol = resolve(handle, #name);       \
        memcpy(&api.name, &symbol, sizeof api.name); \
    } while (0);
    API(RESOLVE)
#undef RESOLVE
    run_chain(&api);
    CHECK(dlclose(handle) == 0);

    /* RTLD_NOLOAD finds the library only if it is still mapped, and then takes a reference. */
    void *again = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
    tally->cycles++;
    if (again != NULL) {
        tally->mapped++;
        CHECK(dlclose(again) == 0);
    }
}

static void *worker(void *tally) {
    for (int i = 0; i < WORKER_CYCLES; i++) {
        cycle(tally);
    }
    return NULL;
}

static int mapped_now(void) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
    if (handle != NULL) {
        CHECK(dlclose(handle) == 0);
    }
    return handle != NULL;
}

int main(int argc, char **argv) {
    CHECK(argc >= 5);
    _Static_assert(sizeof(void *) == sizeof(void (*)(void)), "dlsym returns function pointers");
    library = argv[1];
    FORMAT(tree, sizeof tree, "%s/testdata/tree", argv[2]);
    FORMAT(start, sizeof start, "%s/a/b/c&\"d\"/new.txt", tree);
    functions = argv + 4;
    function_count = argc - 4;
    char golden_path[PATH_CAPACITY];
    FORMAT(golden_path, sizeof golden_path, "%s/testdata/golden/render.txt", argv[2]);
    FILE *file = fopen(golden_path, "rb");
    CHECK(file != NULL);
    golden_len = fread(golden, 1, sizeof golden, file);
    CHECK(golden_len > 0 && golden_len < sizeof golden && !ferror(file));
    fclose(file);

    CHECK(!mapped_now());
    struct tally on_worker = {0, 0};
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, worker, &on_worker) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    int mapped_after_exit = mapped_now();

    struct tally on_main = {0, 0};
    for (int i = 0; i < MAIN_CYCLES; i++) {
        cycle(&on_main);
    }

    FILE *report = fopen(argv[3], "w");
    CHECK(report != NULL);
    fprintf(report,
            "worker thread: %d cycles, still mapped after %d of its dlcloses\n"
            "after the worker thread exited: %s\n"
            "main thread: %d cycles, still mapped after %d of its dlcloses\n",
            on_worker.cycles, on_worker.mapped, mapped_after_exit ? "mapped" : "unmapped",
            on_main.cycles, on_main.mapped);
    CHECK(fclose(report) == 0);
    return 0;
}
