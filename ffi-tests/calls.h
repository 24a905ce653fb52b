/*
 * Checking a call's status and error object, for the C tests that check many: each call passes
 * `&err` as its error_out. Included by one source file each (the definitions are static).
 */

#ifndef CALLS_H
#define CALLS_H

#include "check.h"

/* An output the library must leave alone on failure. */
static char sentinel_storage;
#define SENTINEL ((void *)&sentinel_storage)

/* The error of the last call checked with FAILS, freed by the next. */
static agentsmd_error *err;

/* `call`, which passes `&err` as its error_out, fails with `status` and a new error of that
 * kind with a message. */
#define FAILS(call, status)                                            \
    do {                                                               \
        agentsmd_error_free(err);                                      \
        err = SENTINEL;                                                \
        CHECK_STATUS(call, status, err == SENTINEL ? NULL : err);      \
        CHECK(err != NULL && err != SENTINEL);                         \
        CHECK(agentsmd_error_status(err) == (agentsmd_status)(status));  \
        CHECK(agentsmd_error_message(err)[0] != '\0');                 \
    } while (0)

#define INVALID(call) FAILS(call, AGENTSMD_STATUS_INVALID_ARGUMENT)

/* `call`, which passes `&err` as its error_out, succeeds and leaves `err` alone. */
#define SUCCEEDS(call)                                                 \
    do {                                                               \
        agentsmd_error_free(err);                                      \
        err = SENTINEL;                                                \
        CHECK_STATUS(call, AGENTSMD_STATUS_OK, err == SENTINEL ? NULL : err); \
        CHECK(err == SENTINEL);                                        \
        err = NULL;                                                    \
    } while (0)

#endif /* CALLS_H */
