/*
 * agentsmd for C++17: ownership and exceptions over the C API, nothing more. Hand-written;
 * include/agentsmd.h is the contract, and every function here is one C call.
 *
 * - agentsmd::options, ::result and ::buffer are std::unique_ptr with the C free functions.
 * - agentsmd::call(fn, args...) calls a fallible C function, passing the error_out argument
 *   itself, and throws agentsmd::error (status, message, errno) when it fails.
 * - bytes() and view() convert between agentsmd_bytes and std::string_view, borrowing.
 * - Composition (SPEC.md §5): the options are the C setters through call() (fragments,
 *   overlays, imports, nearest, report, interpolator); set_transform() takes any C++ callable,
 *   file_source(), imports() and probes() read a result, overlay_dir() builds an overlay path.
 */

#ifndef AGENTSMD_HPP
#define AGENTSMD_HPP

#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agentsmd.h"

namespace agentsmd {

/** Frees whatever the library hands out, with its one free function. */
struct deleter {
    void operator()(agentsmd_options *p) const noexcept { agentsmd_options_free(p); }
    void operator()(agentsmd_result *p) const noexcept { agentsmd_result_free(p); }
    void operator()(agentsmd_buffer *p) const noexcept { agentsmd_buffer_free(p); }
    void operator()(agentsmd_error *p) const noexcept { agentsmd_error_free(p); }
};

using options = std::unique_ptr<agentsmd_options, deleter>;
using result = std::unique_ptr<agentsmd_result, deleter>;
using buffer = std::unique_ptr<agentsmd_buffer, deleter>;

/** A failed call: its status, the message naming the path, and the errno of an IO error. */
class error : public std::runtime_error {
  public:
    error(agentsmd_status status, const agentsmd_error *e)
        : std::runtime_error(agentsmd_error_message(e)), status_(status),
          os_code_(agentsmd_error_os_code(e)) {}
    agentsmd_status status() const noexcept { return status_; }
    int os_code() const noexcept { return os_code_; }

  private:
    agentsmd_status status_;
    int os_code_;
};

/** Calls `fn(args..., &error_out)`, throwing agentsmd::error unless it returns OK. */
template <class Fn, class... Args> void call(Fn fn, Args... args) {
    agentsmd_error *raw = nullptr;
    agentsmd_status status = fn(args..., &raw);
    std::unique_ptr<agentsmd_error, deleter> owned(raw);
    if (status != AGENTSMD_STATUS_OK) {
        throw error(status, owned.get());
    }
}

/** A byte string borrowing `s`. */
inline agentsmd_bytes bytes(std::string_view s) noexcept {
    return {reinterpret_cast<const std::uint8_t *>(s.data()), s.size()};
}

/** A view of a byte string the library handed out, valid as long as its owner. */
inline std::string_view view(agentsmd_bytes b) noexcept {
    return {reinterpret_cast<const char *>(b.ptr), b.len};
}

/** A view of `b`'s bytes, valid until it is freed. */
inline std::string_view view(const buffer &b) noexcept {
    return {reinterpret_cast<const char *>(agentsmd_buffer_data(b.get())),
            agentsmd_buffer_len(b.get())};
}

/** New options holding the defaults. */
inline options make_options() {
    options made(agentsmd_options_new());
    if (!made) {
        throw std::bad_alloc();
    }
    return made;
}

/** The chain at `path`; `opts` may be null for the defaults. */
inline result chain(std::string_view path, const agentsmd_options *opts = nullptr) {
    agentsmd_result *out = nullptr;
    agentsmd_bytes p = bytes(path);
    call(agentsmd_chain, p.ptr, p.len, opts, &out);
    return result(out);
}

/** The rendering of `r`'s files. */
inline buffer render(const result &r) {
    agentsmd_buffer *out = nullptr;
    call(agentsmd_result_render, r.get(), &out);
    return buffer(out);
}

/** The source of file `index` of `r` (AGENTSMD_SOURCE_…). */
inline agentsmd_source file_source(const result &r, size_t index) {
    agentsmd_source out = AGENTSMD_SOURCE_CHAIN;
    call(agentsmd_result_file_source, r.get(), index, &out);
    return out;
}

/** The imports expanded into `r`'s files, in the order met; byte strings borrowed from `r`. */
inline std::vector<agentsmd_import> imports(const result &r) {
    std::vector<agentsmd_import> out(agentsmd_result_import_count(r.get()));
    for (size_t i = 0; i < out.size(); i++) {
        call(agentsmd_result_import, r.get(), i, &out[i]);
    }
    return out;
}

/** Every place `r`'s chain looked at, with the report on; paths borrowed from `r`. */
inline std::vector<agentsmd_probe> probes(const result &r) {
    std::vector<agentsmd_probe> out(agentsmd_result_probe_count(r.get()));
    for (size_t i = 0; i < out.size(); i++) {
        call(agentsmd_result_probe, r.get(), i, &out[i]);
    }
    return out;
}

/** USERS_DIR/IDENTITY/.agents, or nullopt when either is empty (no overlay). An identity that
 * could lead out of `users_dir` throws agentsmd::error, its message containing
 * "caller identity". */
inline std::optional<std::string> overlay_dir(std::string_view users_dir,
                                              std::string_view identity) {
    agentsmd_buffer *raw = nullptr;
    agentsmd_bytes u = bytes(users_dir), id = bytes(identity);
    call(agentsmd_overlay_dir, u.ptr, u.len, id.ptr, id.len, &raw);
    if (raw == nullptr) {
        return std::nullopt;
    }
    buffer owned(raw);
    return std::string(view(owned));
}

/** Sets `fn`, a callable std::string(std::string_view path, std::string_view content), as
 * the transform of `opts` (SPEC.md §5.5); the options own a copy and destroy it when they no
 * longer hold it. An exception it throws is caught before it reaches C: the chain then throws
 * agentsmd::error of AGENTSMD_STATUS_FS with its what(). */
template <class Fn> void set_transform(agentsmd_options *opts, Fn fn) {
    struct holder {
        Fn fn;
        static std::uint32_t transform(void *userdata, const std::uint8_t *path, size_t path_len,
                                       const std::uint8_t *content, size_t content_len,
                                       agentsmd_content *out,
                                       agentsmd_message *message) noexcept {
            std::string_view failure = "the transform threw";
            try {
                std::string text = static_cast<holder *>(userdata)->fn(
                    std::string_view(reinterpret_cast<const char *>(path), path_len),
                    std::string_view(reinterpret_cast<const char *>(content), content_len));
                agentsmd_bytes b = bytes(text);
                if (agentsmd_content_append(out, b.ptr, b.len) == AGENTSMD_STATUS_OK) {
                    return AGENTSMD_CALLBACK_STATUS_OK;
                }
                failure = "the transform's content was refused";
            } catch (const std::exception &e) {
                agentsmd_bytes what = bytes(e.what());
                agentsmd_message_set(message, what.ptr, what.len);
                return AGENTSMD_CALLBACK_STATUS_ERROR;
            } catch (...) {
            }
            agentsmd_bytes b = bytes(failure);
            agentsmd_message_set(message, b.ptr, b.len);
            return AGENTSMD_CALLBACK_STATUS_ERROR;
        }
        static void release(void *userdata) noexcept { delete static_cast<holder *>(userdata); }
    };
    std::unique_ptr<holder> owned(new holder{std::move(fn)});
    agentsmd_transform callbacks = {owned.get(), &holder::transform, &holder::release};
    call(agentsmd_options_set_transform, opts, &callbacks);
    owned.release(); // the options hold it now, and release it
}

} // namespace agentsmd

#endif /* AGENTSMD_HPP */
