/*
 * Checks shared by the C tests in ffi-tests/ (run by tests/ffi.rs under valgrind).
 *
 * A failed check prints file:line and what failed, then exits with status 1.
 */

#ifndef CHECK_H
#define CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentsmd.h"

/* Checks that `cond` holds. */
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/*
 * Checks that `call` returns the status `expected`. `err` is the agentsmd_error * the call
 * writes through its error_out: its message is printed when the status is not the one expected.
 */
#define CHECK_STATUS(call, expected, err)                                            \
    do {                                                                             \
        agentsmd_status check_status_ = (call);                                      \
        if (check_status_ != (agentsmd_status)(expected)) {                          \
            fprintf(stderr, "%s:%d: %s returned %u, expected %s: %s\n", __FILE__,    \
                    __LINE__, #call, (unsigned)check_status_, #expected,             \
                    agentsmd_error_message(err));                                    \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* Checks that the byte string `bytes` is the C string `expected`, byte for byte. */
#define CHECK_BYTES(bytes, expected) check_bytes_at(__FILE__, __LINE__, #bytes, (bytes), (expected))

/* Checks that the C string `text` contains `part`. */
#define CHECK_CONTAINS(text, part)                                                   \
    do {                                                                             \
        const char *check_text_ = (text);                                            \
        if (check_text_ == NULL || strstr(check_text_, (part)) == NULL) {            \
            fprintf(stderr, "%s:%d: %s (\"%s\") does not contain \"%s\"\n", __FILE__, \
                    __LINE__, #text, check_text_ ? check_text_ : "(null)", (part));  \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* snprintf into `buffer` of `capacity` bytes, checking that nothing was cut short. */
#define FORMAT(buffer, capacity, ...) \
    CHECK(snprintf((buffer), (capacity), __VA_ARGS__) < (int)(capacity))

/* Sets the message of a failing callback to the printf-style text, which may be of any
 * length: checks that the library took it. */
#define SET_MESSAGE(message, ...)                                                    \
    do {                                                                             \
        char set_message_[512];                                                      \
        FORMAT(set_message_, sizeof set_message_, __VA_ARGS__);                      \
        CHECK(agentsmd_message_set((message), (const uint8_t *)set_message_,         \
                                   strlen(set_message_)) == AGENTSMD_STATUS_OK);      \
    } while (0)

/* Whether `len` bytes at `ptr` are the C string `expected`. */
static inline int bytes_equal(const uint8_t *ptr, size_t len, const char *expected) {
    size_t n = strlen(expected);
    return len == n && (n == 0 || memcmp(ptr, expected, n) == 0);
}

static inline void check_bytes_at(const char *file, int line, const char *what,
                                  agentsmd_bytes bytes, const char *expected) {
    if (!bytes_equal(bytes.ptr, bytes.len, expected)) {
        fprintf(stderr, "%s:%d: %s is \"%.*s\" (%zu bytes), expected \"%s\"\n", file, line, what,
                (int)bytes.len, bytes.ptr ? (const char *)bytes.ptr : "", bytes.len, expected);
        exit(1);
    }
}

/* A byte string viewing the C string `s` (without its NUL). */
static inline agentsmd_bytes str(const char *s) {
    agentsmd_bytes bytes = {(const uint8_t *)s, strlen(s)};
    return bytes;
}

/* `a` followed by `b`, newly allocated: the caller frees it. */
static inline char *concat(const char *a, const char *b) {
    size_t na = strlen(a), nb = strlen(b);
    char *out = malloc(na + nb + 1);
    CHECK(out != NULL);
    memcpy(out, a, na);
    memcpy(out + na, b, nb + 1);
    return out;
}

#endif /* CHECK_H */
