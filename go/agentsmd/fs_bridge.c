// See fs_bridge.h. Each trampoline converts userdata and file handles from
// pointers to the integers they are (cgo.Handle values) and drops const,
// which the Go side honours: it only reads what the library lends it.

#include "_cgo_export.h"
#include "fs_bridge.h"

static uint32_t fs_list(void *fsys, const uint8_t *dir, size_t dir_len,
                        agentsmd_listing *listing, agentsmd_message *message) {
    return agentsmdgoList((uintptr_t)fsys, (uint8_t *)dir, dir_len, listing, message);
}

static uint32_t fs_stat(void *fsys, const uint8_t *name, size_t name_len, uint32_t *kind_out,
                        uint64_t *size_out, agentsmd_message *message) {
    return agentsmdgoStat((uintptr_t)fsys, (uint8_t *)name, name_len, kind_out, size_out,
                          message);
}

static uint32_t fs_open(void *fsys, const uint8_t *name, size_t name_len, void **file_out,
                        agentsmd_message *message) {
    uintptr_t file = 0;
    uint32_t status = agentsmdgoOpen((uintptr_t)fsys, (uint8_t *)name, name_len, &file, message);
    // Written on success only, as the library's other outputs are.
    if (status == AGENTSMD_CALLBACK_STATUS_OK) {
        *file_out = (void *)file;
    }
    return status;
}

static uint32_t fs_read(void *fsys, void *file, uint8_t *buffer, size_t buffer_len,
                        size_t *read_out, agentsmd_message *message) {
    return agentsmdgoRead((uintptr_t)fsys, (uintptr_t)file, buffer, buffer_len, read_out,
                          message);
}

static void fs_close(void *fsys, void *file) {
    agentsmdgoClose((uintptr_t)fsys, (uintptr_t)file);
}

static void fs_release(void *fsys) {
    agentsmdgoRelease((uintptr_t)fsys);
}

static uint32_t fs_list_many(void *fsys, const agentsmd_bytes *dirs, size_t dirs_len,
                             agentsmd_listings *listings, agentsmd_message *message) {
    return agentsmdgoListMany((uintptr_t)fsys, (agentsmd_bytes *)dirs, dirs_len, listings,
                              message);
}

static uint32_t fs_read_many(void *fsys, const agentsmd_bytes *names, size_t names_len,
                             uint64_t limit, agentsmd_reads *reads, agentsmd_message *message) {
    return agentsmdgoReadMany((uintptr_t)fsys, (agentsmd_bytes *)names, names_len, limit, reads,
                              message);
}

agentsmd_status agentsmdgo_set_fs(agentsmd_options *options, uintptr_t fsys, int batched,
                                  agentsmd_error **error_out) {
    agentsmd_fs callbacks = {
        .userdata = (void *)fsys,
        .list = fs_list,
        .stat = fs_stat,
        .open = fs_open,
        .read = fs_read,
        .close = fs_close,
        .release = fs_release,
    };
    agentsmd_fs_batch batch = {
        .list_many = fs_list_many,
        .read_many = fs_read_many,
    };
    return agentsmd_options_set_batched_fs(options, &callbacks, batched ? &batch : NULL,
                                           error_out);
}

static uint32_t transform_call(void *userdata, const uint8_t *path, size_t path_len,
                               const uint8_t *content, size_t content_len, agentsmd_content *out,
                               agentsmd_message *message) {
    return agentsmdgoTransform((uintptr_t)userdata, (uint8_t *)path, path_len,
                               (uint8_t *)content, content_len, out, message);
}

static void transform_release(void *userdata) {
    agentsmdgoReleaseTransform((uintptr_t)userdata);
}

agentsmd_status agentsmdgo_set_transform(agentsmd_options *options, uintptr_t transform,
                                         agentsmd_error **error_out) {
    agentsmd_transform callbacks = {
        .userdata = (void *)transform,
        .transform = transform_call,
        .release = transform_release,
    };
    return agentsmd_options_set_transform(options, &callbacks, error_out);
}
