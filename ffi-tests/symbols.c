/*
 * Every function include/agentsmd.h and agentsmd_test_hooks.h declare is in the library: this
 * program takes the address of each, so a function a header declares and the library lacks fails
 * the link. (tests/ffi.rs checks that this list names every function of both headers.)
 */

#include "check.h"
#include "agentsmd_test_hooks.h"

/* Any function pointer type: C allows a cast between function pointer types. */
typedef void (*fn)(void);

int main(void) {
    fn functions[] = {
        (fn)agentsmd_chain,
        (fn)agentsmd_result_file_count,
        (fn)agentsmd_result_file,
        (fn)agentsmd_result_omitted_count,
        (fn)agentsmd_result_omitted,
        (fn)agentsmd_result_render,
        (fn)agentsmd_result_free,
        (fn)agentsmd_error_status,
        (fn)agentsmd_error_message,
        (fn)agentsmd_error_path,
        (fn)agentsmd_error_line,
        (fn)agentsmd_error_os_code,
        (fn)agentsmd_error_free,
        (fn)agentsmd_cancel_new,
        (fn)agentsmd_cancel_request,
        (fn)agentsmd_cancel_free,
        (fn)agentsmd_options_set_cancel,
        (fn)agentsmd_listing_push,
        (fn)agentsmd_options_new,
        (fn)agentsmd_options_free,
        (fn)agentsmd_options_set_names,
        (fn)agentsmd_options_set_root,
        (fn)agentsmd_options_set_extra,
        (fn)agentsmd_options_set_max_bytes,
        (fn)agentsmd_options_set_budget,
        (fn)agentsmd_options_set_rendered_budget,
        (fn)agentsmd_options_set_confine,
        (fn)agentsmd_options_set_fs,
        (fn)agentsmd_options_set_batched_fs,
        (fn)agentsmd_listings_push,
        (fn)agentsmd_listings_found,
        (fn)agentsmd_reads_set,
        (fn)agentsmd_render,
        (fn)agentsmd_buffer_data,
        (fn)agentsmd_buffer_len,
        (fn)agentsmd_buffer_free,
        (fn)agentsmd_parse,
        (fn)agentsmd_parse_nearest,
        (fn)agentsmd_document_path,
        (fn)agentsmd_document_warning_count,
        (fn)agentsmd_document_warning,
        (fn)agentsmd_document_requested_count,
        (fn)agentsmd_document_requested,
        (fn)agentsmd_document_skill_count,
        (fn)agentsmd_document_skill,
        (fn)agentsmd_document_unknown_count,
        (fn)agentsmd_document_unknown,
        (fn)agentsmd_document_unit_count,
        (fn)agentsmd_document_unit,
        (fn)agentsmd_document_free,
        (fn)agentsmd_document_block,
        (fn)agentsmd_block_data,
        (fn)agentsmd_block_len,
        (fn)agentsmd_block_cap,
        (fn)agentsmd_block_dropped_count,
        (fn)agentsmd_block_dropped,
        (fn)agentsmd_block_free,
#if defined(AGENTSMD_TEST_HOOKS)
        (fn)agentsmd_test_panic,
        (fn)agentsmd_test_panic_after_callbacks,
        (fn)agentsmd_test_bytes_zeroed,
#endif
        (fn)agentsmd_version,
        (fn)agentsmd_result_file_source,
        (fn)agentsmd_result_import_count,
        (fn)agentsmd_result_import,
        (fn)agentsmd_result_probe_count,
        (fn)agentsmd_result_probe,
        (fn)agentsmd_options_set_fragments,
        (fn)agentsmd_options_set_rules,
        (fn)agentsmd_result_available_count,
        (fn)agentsmd_result_available,
        (fn)agentsmd_result_warning_count,
        (fn)agentsmd_result_warning,
        (fn)agentsmd_options_set_preset,
        (fn)agentsmd_options_set_home,
        (fn)agentsmd_preset_render,
        (fn)agentsmd_options_set_overlays,
        (fn)agentsmd_options_set_imports,
        (fn)agentsmd_options_set_import_depth,
        (fn)agentsmd_options_set_max_imports,
        (fn)agentsmd_options_set_nearest,
        (fn)agentsmd_options_set_all_names,
        (fn)agentsmd_session_new,
        (fn)agentsmd_session_touch,
        (fn)agentsmd_session_touch_cancellable,
        (fn)agentsmd_session_free,
        (fn)agentsmd_options_set_report,
        (fn)agentsmd_overlay_dir,
        (fn)agentsmd_content_append,
        (fn)agentsmd_message_set,
        (fn)agentsmd_options_set_transform,
        (fn)agentsmd_options_set_interpolator,
    };
    size_t count = sizeof functions / sizeof functions[0];
    for (size_t i = 0; i < count; i++) {
        CHECK(functions[i] != NULL);
    }
#if !defined(AGENTSMD_TEST_HOOKS)
#error "tests/ffi.rs compiles the C tests with AGENTSMD_TEST_HOOKS"
#endif
    printf("%zu functions linked\n", count);
    return 0;
}
