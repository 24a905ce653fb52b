/*
 * The headers from C++17 (tests/consumers.rs compiles this with g++ -Wall -Wextra -Wpedantic
 * -Werror and runs it under valgrind): each included twice, so their include guards are
 * tested; the chain on the fixture tree through agentsmd.hpp, its rendering checked against
 * the golden file; a failure as an agentsmd::error whose C error object is freed.
 *
 * Usage: cpp REPO_DIR
 */

#include "agentsmd.h"
#include "agentsmd.h"
#include "agentsmd.hpp"
#include "agentsmd.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

// The enums are fixed at 32 bits in C++ as in C, and the structs are plain C layout.
static_assert(sizeof(agentsmd_status) == 4 && sizeof(agentsmd_reason) == 4, "enums are 32-bit");
static_assert(std::is_standard_layout_v<agentsmd_omitted>, "C layout");
static_assert(std::is_trivially_copyable_v<agentsmd_file>, "C layout");

static std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    CHECK(in.good());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/* The golden rendering with the tree's path before every path in it: the rendering of the
 * same chain on the OS file system. */
static std::string with_paths_under(const std::string &golden, const std::string &tree) {
    std::string escaped;
    for (char c : tree) {
        switch (c) {
        case '&': escaped += "&amp;"; break;
        case '<': escaped += "&lt;"; break;
        case '>': escaped += "&gt;"; break;
        case '"': escaped += "&quot;"; break;
        default: escaped += c;
        }
    }
    std::string out = golden;
    const std::string attribute = "path=\"";
    for (size_t at = out.find(attribute); at != std::string::npos;
         at = out.find(attribute, at + attribute.size())) {
        out.insert(at + attribute.size(), escaped + "/");
    }
    return out;
}

int main(int argc, char **argv) {
    CHECK(argc >= 2);
    const std::string repo = argv[1];
    const std::string tree = repo + "/testdata/tree";
    const std::string golden = read_file(repo + "/testdata/golden/render.txt");
    CHECK(std::string(agentsmd_version()) == AGENTSMD_VERSION);

    agentsmd::options options = agentsmd::make_options();
    std::vector<agentsmd_bytes> names = {agentsmd::bytes("AGENTS.override.md"),
                                         agentsmd::bytes("AGENTS.md")};
    agentsmd::call(agentsmd_options_set_names, options.get(), names.data(), names.size());
    agentsmd::call(agentsmd_options_set_root, options.get(), agentsmd::bytes(tree).ptr,
                   tree.size());

    agentsmd::result chain = agentsmd::chain(tree + "/a/b/c&\"d\"/new.txt", options.get());
    agentsmd::result result = std::move(chain); // ownership moves; freed once, by `result`
    CHECK(!chain && result);
    CHECK(agentsmd::view(agentsmd::render(result)) == with_paths_under(golden, tree));

    // The files with paths relative to the tree, rendered by the caller: the golden bytes.
    std::vector<agentsmd_file> files(agentsmd_result_file_count(result.get()));
    CHECK(files.size() == 3);
    for (size_t i = 0; i < files.size(); i++) {
        agentsmd::call(agentsmd_result_file, result.get(), i, &files[i]);
        std::string_view path = agentsmd::view(files[i].path);
        CHECK(path.substr(0, tree.size() + 1) == tree + "/");
        files[i].path = agentsmd::bytes(path.substr(tree.size() + 1));
    }
    agentsmd_buffer *raw = nullptr;
    agentsmd::call(agentsmd_render, files.data(), files.size(), &raw);
    CHECK(agentsmd::view(agentsmd::buffer(raw)) == golden);

    CHECK(agentsmd_result_omitted_count(result.get()) == 1);
    agentsmd_omitted omitted;
    agentsmd::call(agentsmd_result_omitted, result.get(), size_t{0}, &omitted);
    CHECK(omitted.reason == AGENTSMD_REASON_SHADOWED);
    CHECK(agentsmd::view(omitted.path) == tree + "/a/AGENTS.md");
    CHECK(agentsmd::view(omitted.by) == tree + "/a/AGENTS.override.md");

    // A path outside the root: the C error becomes an exception, and is freed (valgrind).
    try {
        agentsmd::chain("/elsewhere", options.get());
        CHECK(!"a path outside the root is refused");
    } catch (const agentsmd::error &e) {
        CHECK(e.status() == AGENTSMD_STATUS_INVALID_ARGUMENT);
        CHECK(std::string(e.what()).find("/elsewhere") != std::string::npos);
        CHECK(e.os_code() == 0);
    }
    std::printf("cpp: ok\n");
    return 0;
}
