/*
 * agentsmd for C++17: ownership and exceptions over the C API, nothing more. Hand-written;
 * include/agentsmd.h is the contract, and every function here is one C call.
 *
 * - agentsmd::options, ::result and ::buffer are std::unique_ptr with the C free functions.
 * - agentsmd::call(fn, args...) calls a fallible C function, passing the error_out argument
 *   itself, and throws agentsmd::error (status, message, errno) when it fails.
 * - bytes() and view() convert between agentsmd_bytes and std::string_view, borrowing.
 */

#ifndef AGENTSMD_HPP
#define AGENTSMD_HPP

#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string_view>

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

} // namespace agentsmd

#endif /* AGENTSMD_HPP */
