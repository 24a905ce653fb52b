/*
 * The C ABI's paths on Windows (SPEC.md §8.2), run under Wine by tests/windows.rs: UTF-8 bytes
 * in, `\` out with the prefix as given, `/` taken as a separator, the root compared ignoring
 * ASCII case, a name counted only under its exact spelling, Windows's invalid names refused,
 * and bytes that are not WTF-8 refused.
 *
 * Usage: windows REPO_DIR TEMP_DIR (the repository is unused)
 */

#include <direct.h>
#include <stdlib.h>
#include <windows.h>

#include "check.h"

#define PATH_CAPACITY 4096

/* The absolute Windows path of the work directory, `\`-separated, without a trailing `\`. */
static char work[PATH_CAPACITY];

/* <work>\<rel> (rel written with `\`), in one of a few static buffers. */
static const char *at(const char *rel) {
    static char ring[8][PATH_CAPACITY];
    static size_t next;
    char *out = ring[next++ % 8];
    FORMAT(out, PATH_CAPACITY, "%s\\%s", work, rel);
    return out;
}

static void write_file(const char *rel, const char *content) {
    FILE *file = fopen(at(rel), "wb");
    CHECK(file != NULL);
    CHECK(fwrite(content, 1, strlen(content), file) == strlen(content));
    CHECK(fclose(file) == 0);
}

static void make_dir(const char *rel) {
    CHECK(_mkdir(at(rel)) == 0);
}

/* `text` with every `\` written as `/`, in a static buffer. */
static const char *slashed(const char *text) {
    static char out[PATH_CAPACITY];
    FORMAT(out, PATH_CAPACITY, "%s", text);
    for (char *c = out; *c; c++) {
        if (*c == '\\') *c = '/';
    }
    return out;
}

/* `text` with every ASCII letter upper-cased, in a static buffer. */
static const char *upper(const char *text) {
    static char out[PATH_CAPACITY];
    FORMAT(out, PATH_CAPACITY, "%s", text);
    for (char *c = out; *c; c++) {
        if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 'a' + 'A');
    }
    return out;
}

static struct agentsmd_options *rooted(const char *root) {
    struct agentsmd_options *options = agentsmd_options_new();
    agentsmd_error *err = NULL;
    CHECK(options != NULL);
    CHECK_STATUS(agentsmd_options_set_root(options, (const uint8_t *)root, strlen(root), &err),
                 AGENTSMD_STATUS_OK, err);
    return options;
}

/* Runs a chain at `path` and checks that its files' paths are `expected` (count of them). */
static void check_chain(const char *path, const struct agentsmd_options *options,
                        const char *const *expected, size_t count) {
    agentsmd_result *result = NULL;
    agentsmd_error *err = NULL;
    CHECK_STATUS(agentsmd_chain((const uint8_t *)path, strlen(path), options, &result, &err),
                 AGENTSMD_STATUS_OK, err);
    CHECK(agentsmd_result_file_count(result) == count);
    for (size_t i = 0; i < count; i++) {
        agentsmd_file file;
        CHECK_STATUS(agentsmd_result_file(result, i, &file, &err), AGENTSMD_STATUS_OK, err);
        if (file.path.len != strlen(expected[i]) ||
            memcmp(file.path.ptr, expected[i], file.path.len) != 0) {
            fprintf(stderr, "file %u: %.*s, expected %s\n", (unsigned)i, (int)file.path.len,
                    (const char *)file.path.ptr, expected[i]);
            exit(1);
        }
    }
    agentsmd_result_free(result);
}

static void paths_are_written_with_backslashes_and_the_prefix_as_given(void) {
    struct agentsmd_options *options = rooted(at("repo"));
    char root_file[PATH_CAPACITY], src_file[PATH_CAPACITY];
    FORMAT(root_file, sizeof root_file, "%s", at("repo\\AGENTS.md"));
    FORMAT(src_file, sizeof src_file, "%s", at("repo\\src\\AGENTS.md"));
    const char *expected[] = {root_file, src_file};
    check_chain(at("repo\\src\\main.rs"), options, expected, 2);
    /* `/` separates too; what comes out is written with `\`. */
    check_chain(slashed(at("repo\\src\\main.rs")), options, expected, 2);
    /* A relative path is made absolute against the current directory. */
    CHECK(_chdir(at("repo")) == 0);
    check_chain("src\\main.rs", options, expected, 2);
    check_chain("src/./x/../main.rs", options, expected, 2);
    agentsmd_options_free(options);
}

static void the_root_is_compared_ignoring_ascii_case_and_paths_keep_the_paths_spelling(void) {
    /* The root in upper case, the path as it is: the files are spelled as the path is. */
    struct agentsmd_options *options = rooted(upper(at("repo")));
    char root_file[PATH_CAPACITY], src_file[PATH_CAPACITY];
    FORMAT(root_file, sizeof root_file, "%s", at("repo\\AGENTS.md"));
    FORMAT(src_file, sizeof src_file, "%s", at("repo\\src\\AGENTS.md"));
    const char *expected[] = {root_file, src_file};
    check_chain(at("repo\\src\\main.rs"), options, expected, 2);
    agentsmd_options_free(options);

    /* A path outside the root: another drive's prefix is outside. */
    options = rooted(at("repo"));
    agentsmd_result *result = NULL;
    agentsmd_error *err = NULL;
    const char *other = "Q:\\repo\\src";
    CHECK(agentsmd_chain((const uint8_t *)other, strlen(other), options, &result, &err) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(agentsmd_error_message(err), "outside root") != NULL);
    agentsmd_error_free(err);
    agentsmd_options_free(options);
}

static void a_name_counts_only_under_its_exact_spelling(void) {
    /* `spelled\agents.md` exists; NTFS (and Wine) would open it as AGENTS.md. */
    struct agentsmd_options *options = rooted(at("spelled"));
    const char *none[] = {NULL};
    check_chain(at("spelled\\x.md"), options, none, 0);
    agentsmd_error *err = NULL;
    struct agentsmd_bytes lower = {(const uint8_t *)"agents.md", 9};
    CHECK_STATUS(agentsmd_options_set_names(options, &lower, 1, &err), AGENTSMD_STATUS_OK, err);
    char found[PATH_CAPACITY];
    FORMAT(found, sizeof found, "%s", at("spelled\\agents.md"));
    const char *expected[] = {found};
    check_chain(at("spelled\\x.md"), options, expected, 1);
    agentsmd_options_free(options);
}

static void names_windows_would_open_as_another_file_are_refused(void) {
    const char *refused[] = {"nul.md", "NUL", "con", "com1.md", "lpt9", "a:b", "AGENTS.md:x",
                             "AGENTS.md.", "AGENTS.md ", "a\\b", "a*b", "a?b", "a|b"};
    struct agentsmd_options *options = agentsmd_options_new();
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        agentsmd_error *err = NULL;
        struct agentsmd_bytes name = {(const uint8_t *)refused[i], strlen(refused[i])};
        CHECK(agentsmd_options_set_names(options, &name, 1, &err) ==
              AGENTSMD_STATUS_INVALID_ARGUMENT);
        agentsmd_error_free(err);
    }
    agentsmd_options_free(options);
}

static void bytes_that_are_not_wtf8_are_an_invalid_argument(void) {
    const char path[] = "C:\\repo\\\xff.md";
    agentsmd_result *result = NULL;
    agentsmd_error *err = NULL;
    CHECK(agentsmd_chain((const uint8_t *)path, sizeof path - 1, NULL, &result, &err) ==
          AGENTSMD_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(agentsmd_error_message(err), "WTF-8") != NULL);
    agentsmd_error_free(err);
}

int main(int argc, char **argv) {
    CHECK(argc == 3);
    CHECK(_fullpath(work, argv[2], sizeof work) != NULL);
    make_dir("repo");
    make_dir("repo\\src");
    write_file("repo\\AGENTS.md", "root\n");
    write_file("repo\\src\\AGENTS.md", "src\n");
    make_dir("spelled");
    write_file("spelled\\agents.md", "lower\n");

    paths_are_written_with_backslashes_and_the_prefix_as_given();
    the_root_is_compared_ignoring_ascii_case_and_paths_keep_the_paths_spelling();
    a_name_counts_only_under_its_exact_spelling();
    names_windows_would_open_as_another_file_are_refused();
    bytes_that_are_not_wtf8_are_an_invalid_argument();
    return 0;
}
