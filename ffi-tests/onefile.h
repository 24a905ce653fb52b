/*
 * The listing and the stat of a custom file system whose root "." holds one regular file,
 * AGENTS.md, of `onefile_size` bytes: shared by the C tests whose file system is only that
 * (handles.c, pieces.c), each with its own open and read.
 */

#ifndef ONEFILE_H
#define ONEFILE_H

#include "check.h"

static uint64_t onefile_size;

/* Lists AGENTS.md, whatever the directory (only "." is asked). */
static inline uint32_t onefile_list(void *userdata, const uint8_t *dir, size_t dir_len,
                                    agentsmd_listing *listing, agentsmd_message *message) {
    (void)userdata, (void)dir, (void)dir_len, (void)message;
    CHECK(agentsmd_listing_push(listing, (const uint8_t *)"AGENTS.md", 9) == AGENTSMD_STATUS_OK);
    return AGENTSMD_CALLBACK_STATUS_OK;
}

/* "." is a directory; any other name, the regular file. */
static inline uint32_t onefile_stat(void *userdata, const uint8_t *name, size_t name_len,
                                    uint32_t *kind_out, uint64_t *size_out, agentsmd_message *message) {
    (void)userdata, (void)message;
    int root = bytes_equal(name, name_len, ".");
    *kind_out = root ? AGENTSMD_ENTRY_KIND_DIR : AGENTSMD_ENTRY_KIND_FILE;
    *size_out = root ? 0 : onefile_size;
    return AGENTSMD_CALLBACK_STATUS_OK;
}

#endif /* ONEFILE_H */
