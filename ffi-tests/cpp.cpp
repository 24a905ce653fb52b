/*
 * The headers from C++17 (tests/consumers.rs compiles this with g++ -Wall -Wextra -Wpedantic
 * -Werror and runs it under valgrind): each included twice, so their include guards are
 * tested; the chain on the fixture tree through agentsmd.hpp, its rendering checked against
 * the golden file; a failure as an agentsmd::error whose C error object is freed; the
 * composition options of SPEC.md §5 in a temporary directory of its own.
 *
 * Usage: cpp REPO_DIR
 */

#include "agentsmd.h"
#include "agentsmd.h"
#include "agentsmd.hpp"
#include "agentsmd.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
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

static void write_file(const std::filesystem::path &path, const std::string &text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    CHECK(out.good());
}

/* Fragments, an overlay, imports, the report, nearest and a transform, in a fresh temporary
 * directory, removed after. */
static void test_composition() {
    char pattern[] = "/tmp/agentsmd-cpp-XXXXXX";
    CHECK(mkdtemp(pattern) != nullptr);
    const std::string dir = pattern;
    write_file(dir + "/AGENTS.md", "root\n@inc.md\n");
    write_file(dir + "/inc.md", "inc\n");
    write_file(dir + "/a/AGENTS.md", "a\n");
    write_file(dir + "/a/AGENTS.d/f.md", "f\n");
    write_file(dir + "/users/ada/.agents/AGENTS.md", "ada\n");

    std::optional<std::string> overlay = agentsmd::overlay_dir(dir + "/users", "ada");
    CHECK(overlay && *overlay == dir + "/users/ada/.agents");
    CHECK(!agentsmd::overlay_dir("", "ada"));
    try {
        agentsmd::overlay_dir(dir + "/users", "../etc");
        CHECK(!"a traversing identity is refused");
    } catch (const agentsmd::error &e) {
        CHECK(e.status() == AGENTSMD_STATUS_INVALID_ARGUMENT);
        CHECK(std::string(e.what()).find("caller identity") != std::string::npos);
    }

    agentsmd::options options = agentsmd::make_options();
    agentsmd::call(agentsmd_options_set_root, options.get(), agentsmd::bytes(dir).ptr, dir.size());
    agentsmd_bytes fragments = agentsmd::bytes("AGENTS.d");
    agentsmd::call(agentsmd_options_set_fragments, options.get(), &fragments, size_t{1});
    agentsmd_bytes overlays = agentsmd::bytes(*overlay);
    agentsmd::call(agentsmd_options_set_overlays, options.get(), &overlays, size_t{1});
    agentsmd::call(agentsmd_options_set_imports, options.get(), std::uint32_t{1});
    agentsmd::call(agentsmd_options_set_report, options.get(), std::uint32_t{1});
    agentsmd::result r = agentsmd::chain(dir + "/a/x", options.get());
    CHECK(agentsmd_result_file_count(r.get()) == 4);
    CHECK(agentsmd::file_source(r, 0) == AGENTSMD_SOURCE_CHAIN);
    CHECK(agentsmd::file_source(r, 2) == AGENTSMD_SOURCE_FRAGMENT);
    CHECK(agentsmd::file_source(r, 3) == AGENTSMD_SOURCE_OVERLAY);
    std::vector<agentsmd_import> imports = agentsmd::imports(r);
    CHECK(imports.size() == 1);
    CHECK(agentsmd::view(imports[0].path) == dir + "/inc.md");
    CHECK(imports[0].line == 2 && imports[0].depth == 1 && imports[0].size == 4);
    std::vector<agentsmd_probe> probes = agentsmd::probes(r);
    CHECK(probes.size() >= 2);
    CHECK(agentsmd::view(probes[1].path) == dir + "/inc.md");
    CHECK(probes[1].outcome == AGENTSMD_OUTCOME_IMPORTED);

    agentsmd::options near = agentsmd::make_options();
    agentsmd::call(agentsmd_options_set_root, near.get(), agentsmd::bytes(dir).ptr, dir.size());
    agentsmd::call(agentsmd_options_set_nearest, near.get(), std::uint32_t{1});
    int calls = 0;
    agentsmd::set_transform(near.get(), [&calls](std::string_view, std::string_view content) {
        calls++;
        if (content == "boom\n") {
            throw std::runtime_error("no thanks");
        }
        return "T:" + std::string(content);
    });
    r = agentsmd::chain(dir + "/a/x", near.get());
    CHECK(agentsmd_result_file_count(r.get()) == 1 && calls == 1);
    agentsmd_file file;
    agentsmd::call(agentsmd_result_file, r.get(), size_t{0}, &file);
    CHECK(agentsmd::view(file.content) == "T:a\n");
    agentsmd_omitted omitted;
    agentsmd::call(agentsmd_result_omitted, r.get(), size_t{0}, &omitted);
    CHECK(omitted.reason == AGENTSMD_REASON_SUPERSEDED);
    write_file(dir + "/a/AGENTS.md", "boom\n");
    try {
        agentsmd::chain(dir + "/a/x", near.get());
        CHECK(!"a throwing transform fails the chain");
    } catch (const agentsmd::error &e) {
        CHECK(e.status() == AGENTSMD_STATUS_FS);
        CHECK(std::string(e.what()).find("no thanks") != std::string::npos);
    }
    std::filesystem::remove_all(dir);
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
    test_composition();
    std::printf("cpp: ok\n");
    return 0;
}
