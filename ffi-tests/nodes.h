/*
 * A custom file system's tree as a constant table of nodes, and what its callbacks do with it:
 * shared by the C tests whose file systems are such a table (faults.c, threads.c, batch.c). Names are
 * FS names ("." the root, "a/b" below it); the root comes first.
 */

#ifndef NODES_H
#define NODES_H

#include "check.h"

struct node {
    const char *name;
    uint32_t kind;
    const char *content; /* NULL for a directory */
};

/* An open file: the node, and how much of its content has been read. */
struct handle {
    const struct node *node;
    size_t at;
};

/* The node of `nodes` (`count` of them) named `name` (`len` bytes); NULL when there is none. */
static inline const struct node *node_find(const struct node *nodes, size_t count,
                                           const uint8_t *name, size_t len) {
    for (size_t i = 0; i < count; i++) {
        if (bytes_equal(name, len, nodes[i].name)) {
            return &nodes[i];
        }
    }
    return NULL;
}

/* The last element of `node` when it is directly in the directory `dir`, else NULL. */
static inline const char *node_base_in(const struct node *node, const uint8_t *dir,
                                       size_t dir_len) {
    const char *name = node->name;
    const char *slash = strrchr(name, '/');
    const char *parent = slash ? name : ".";
    size_t parent_len = slash ? (size_t)(slash - name) : 1;
    if (strcmp(name, ".") == 0 || parent_len != dir_len || memcmp(parent, dir, dir_len) != 0) {
        return NULL;
    }
    return slash ? slash + 1 : name;
}

/* Pushes onto `listing` the last element of every node directly in the directory `dir`. */
static inline void nodes_list(const struct node *nodes, size_t count, const uint8_t *dir,
                              size_t dir_len, agentsmd_listing *listing) {
    for (size_t i = 1; i < count; i++) {
        const char *base = node_base_in(&nodes[i], dir, dir_len);
        if (base) {
            CHECK(agentsmd_listing_push(listing, (const uint8_t *)base, strlen(base)) ==
                  AGENTSMD_STATUS_OK);
        }
    }
}

/* A new handle on `node`, a file, at its start; the caller frees it with free(). */
static inline struct handle *handle_open(const struct node *node) {
    CHECK(node->kind == AGENTSMD_ENTRY_KIND_FILE); /* nothing but a regular file is opened */
    struct handle *handle = malloc(sizeof *handle);
    CHECK(handle != NULL);
    handle->node = node;
    handle->at = 0;
    return handle;
}

/* Copies the next bytes of the handle's content, at most `max`, into `buffer`; how many. */
static inline size_t handle_read(struct handle *handle, uint8_t *buffer, size_t max) {
    size_t left = strlen(handle->node->content) - handle->at;
    size_t n = left < max ? left : max;
    memcpy(buffer, handle->node->content + handle->at, n);
    handle->at += n;
    return n;
}

#endif /* NODES_H */
