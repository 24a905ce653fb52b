/*
 * The directory a C test writes its files in, and how it writes them there: shared by the C
 * tests that build their own trees on disk. `main` sets `scratch` (from TEMP_DIR, or a
 * directory below it) before anything else here is used.
 */

#ifndef SCRATCH_H
#define SCRATCH_H

#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#endif

#include "check.h"

#define SCRATCH_CAPACITY 4096

/* The directory, without a trailing '/'. */
static char scratch[SCRATCH_CAPACITY];

/* <scratch>/<rel>, in one of a few static buffers, so several can be used at once. */
static inline const char *at(const char *rel) {
    static char ring[8][SCRATCH_CAPACITY];
    static size_t next;
    char *out = ring[next++ % 8];
    FORMAT(out, SCRATCH_CAPACITY, "%s/%s", scratch, rel);
    return out;
}

/* Writes `content` (a C string) as the whole file <scratch>/<rel>. */
static inline void write_file(const char *rel, const char *content) {
    FILE *file = fopen(at(rel), "wb");
    CHECK(file != NULL);
    CHECK(fwrite(content, 1, strlen(content), file) == strlen(content));
    CHECK(fclose(file) == 0);
}

/* Creates the directory <scratch>/<rel>; its parent must exist. */
static inline void make_dir(const char *rel) {
#ifdef _WIN32
    CHECK(_mkdir(at(rel)) == 0);
#else
    CHECK(mkdir(at(rel), 0755) == 0);
#endif
}

#endif /* SCRATCH_H */
