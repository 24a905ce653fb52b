/*
 * A custom file system that reads in the smallest pieces: a 1 MiB file answered one byte per
 * `read` call. The chain reads it whole, and the work the library does around the calls (the
 * bytes it zeroes in the buffers it hands them, counted by a test hook) stays linear in the
 * file's size: once per byte of buffer, not once per call.
 *
 * Usage: pieces REPO_DIR TEMP_DIR (neither is used: the file system is in memory)
 */

#include "check.h"
#include "agentsmd_test_hooks.h"
#include "onefile.h"

#define SIZE ((size_t)1 << 20)

static size_t reads;

static uint32_t fs_open(void *userdata, const uint8_t *name, size_t name_len, void **file_out,
                        agentsmd_message *message) {
    (void)userdata, (void)message;
    CHECK(bytes_equal(name, name_len, "AGENTS.md"));
    size_t *at = malloc(sizeof *at);
    CHECK(at != NULL);
    *at = 0;
    *file_out = at;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

/* One byte per call, whatever the buffer's size: 'a', and a newline at the end. */
static uint32_t fs_read(void *userdata, void *file, uint8_t *buffer, size_t len, size_t *read_out,
                        agentsmd_message *message) {
    (void)userdata, (void)message;
    size_t *at = file;
    reads++;
    *read_out = 0;
    if (*at < SIZE && len > 0) {
        buffer[0] = *at == SIZE - 1 ? '\n' : 'a';
        *read_out = 1;
        *at += 1;
    }
    return AGENTSMD_CALLBACK_STATUS_OK;
}

static void fs_close(void *userdata, void *file) {
    (void)userdata;
    free(file);
}

int main(int argc, char **argv) {
    (void)argc, (void)argv;
    onefile_size = SIZE;
    agentsmd_fs fs = {NULL, onefile_list, onefile_stat, fs_open, fs_read, fs_close, NULL};
    agentsmd_options *options = agentsmd_options_new();
    CHECK(options != NULL);
    CHECK(agentsmd_options_set_fs(options, &fs, NULL) == AGENTSMD_STATUS_OK);

    uint64_t zeroed_before = agentsmd_test_bytes_zeroed();
    agentsmd_result *result = NULL;
    agentsmd_error *error = NULL;
    CHECK_STATUS(agentsmd_chain((const uint8_t *)".", 1, options, &result, &error),
                 AGENTSMD_STATUS_OK, error);
    uint64_t zeroed = agentsmd_test_bytes_zeroed() - zeroed_before;

    CHECK(agentsmd_result_file_count(result) == 1);
    agentsmd_file file;
    CHECK(agentsmd_result_file(result, 0, &file, NULL) == AGENTSMD_STATUS_OK);
    CHECK(file.content.len == SIZE);
    CHECK(file.content.ptr[0] == 'a' && file.content.ptr[SIZE - 1] == '\n');
    /* Every byte, one call each, and one more that finds the end. */
    CHECK(reads == SIZE + 1);
    /* At most the buffer's size, once: never a byte per call per byte. */
    if (zeroed > 2 * (SIZE + 1)) {
        fprintf(stderr, "%llu bytes zeroed to read %zu bytes\n", (unsigned long long)zeroed, SIZE);
        return 1;
    }
    agentsmd_result_free(result);
    agentsmd_options_free(options);
    return 0;
}
