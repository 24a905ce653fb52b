//! The C API from Zig (0.14): the header through @cImport, the static library linked in with
//! Zig's own unwinder. On the fixture tree with the override names, the files rendered with
//! paths relative to the tree are the golden rendering byte for byte; the shadowed file is
//! reported; a failure carries its message; and a panic inside the library is caught at its
//! boundary, so Rust's unwinding works with the unwinder Zig links. The composition options of
//! SPEC.md §5 too: nearest, the report, imports, fragments, overlay_dir and a transform written
//! in Zig.
//!
//! Usage: chain REPO_DIR   (tests/consumers.rs builds and runs it)

const std = @import("std");
const expect = std.testing.expect;

const c = @cImport({
    @cInclude("agentsmd.h");
    // The library tests/consumers.rs links is built with the test hooks (ffi-tests/).
    @cInclude("agentsmd_test_hooks.h");
});

fn bytes(s: []const u8) c.agentsmd_bytes {
    return .{ .ptr = s.ptr, .len = s.len };
}

fn slice(b: c.agentsmd_bytes) []const u8 {
    return if (b.len == 0) "" else b.ptr[0..b.len];
}

/// Turns a failed call into a Zig error, printing and freeing the library's error.
fn check(status: c.agentsmd_status, err: ?*c.agentsmd_error) !void {
    if (status == c.AGENTSMD_STATUS_OK) return;
    defer c.agentsmd_error_free(err);
    std.debug.print("agentsmd: status {d}: {s}\n", .{ status, c.agentsmd_error_message(err) });
    return error.Agentsmd;
}

pub fn main() !void {
    var arena = std.heap.ArenaAllocator.init(std.heap.page_allocator);
    defer arena.deinit();
    const allocator = arena.allocator();
    const args = try std.process.argsAlloc(allocator);
    if (args.len != 2) return error.Usage;
    const tree = try std.fs.path.join(allocator, &.{ args[1], "testdata", "tree" });
    const start = try std.fs.path.join(allocator, &.{ tree, "a/b/c&\"d\"/new.txt" });
    const golden_path = try std.fs.path.join(allocator, &.{ args[1], "testdata/golden" });
    var golden_dir = try std.fs.cwd().openDir(golden_path, .{});
    defer golden_dir.close();
    const golden = try golden_dir.readFileAlloc(allocator, "render.txt", 1 << 20);

    try std.testing.expectEqualStrings(c.AGENTSMD_VERSION, std.mem.span(c.agentsmd_version()));

    const options = c.agentsmd_options_new() orelse return error.OutOfMemory;
    defer c.agentsmd_options_free(options);
    var err: ?*c.agentsmd_error = null;
    const names = [_]c.agentsmd_bytes{ bytes("AGENTS.override.md"), bytes("AGENTS.md") };
    try check(c.agentsmd_options_set_names(options, &names, names.len, &err), err);
    try check(c.agentsmd_options_set_root(options, tree.ptr, tree.len, &err), err);

    var result: ?*c.agentsmd_result = null;
    try check(c.agentsmd_chain(start.ptr, start.len, options, &result, &err), err);
    defer c.agentsmd_result_free(result);

    // The files with their paths made relative to the tree, as a product shows them.
    var files: [3]c.agentsmd_file = undefined;
    try expect(c.agentsmd_result_file_count(result) == files.len);
    for (&files, 0..) |*file, i| {
        try check(c.agentsmd_result_file(result, i, file, &err), err);
        const path = slice(file.path);
        try expect(std.mem.startsWith(u8, path, tree) and path[tree.len] == '/');
        file.path = bytes(path[tree.len + 1 ..]);
    }
    var buffer: ?*c.agentsmd_buffer = null;
    try check(c.agentsmd_render(&files, files.len, &buffer, &err), err);
    defer c.agentsmd_buffer_free(buffer);
    const rendered = c.agentsmd_buffer_data(buffer)[0..c.agentsmd_buffer_len(buffer)];
    try std.testing.expectEqualStrings(golden, rendered);

    try expect(c.agentsmd_result_omitted_count(result) == 1);
    var omitted: c.agentsmd_omitted = undefined;
    try check(c.agentsmd_result_omitted(result, 0, &omitted, &err), err);
    try expect(omitted.reason == c.AGENTSMD_REASON_SHADOWED);
    try expect(std.mem.endsWith(u8, slice(omitted.path), "/a/AGENTS.md"));
    try expect(std.mem.endsWith(u8, slice(omitted.by), "/a/AGENTS.override.md"));

    // A path outside the root fails with a message naming it.
    var outside: ?*c.agentsmd_result = null;
    const elsewhere = "/elsewhere";
    const status = c.agentsmd_chain(elsewhere.ptr, elsewhere.len, options, &outside, &err);
    try expect(status == c.AGENTSMD_STATUS_INVALID_ARGUMENT);
    try expect(outside == null);
    try expect(std.mem.indexOf(u8, std.mem.span(c.agentsmd_error_message(err)), elsewhere) != null);
    c.agentsmd_error_free(err);

    // A panic unwinds through Rust only, and comes back as a status.
    err = null;
    try expect(c.agentsmd_test_panic(&err) == c.AGENTSMD_STATUS_PANIC);
    try expect(c.agentsmd_error_status(err) == c.AGENTSMD_STATUS_PANIC);
    c.agentsmd_error_free(err);

    try composition(tree, start);
    try std.io.getStdOut().writeAll("zig: ok\n");
}

/// A transform written in Zig: "Z:" before each file's content.
fn prefix(_: ?*anyopaque, _: [*c]const u8, _: usize, content: [*c]const u8, content_len: usize, out: ?*c.agentsmd_content, message: ?*c.agentsmd_message) callconv(.C) u32 {
    if (c.agentsmd_content_append(out, "Z:", 2) != c.AGENTSMD_STATUS_OK or
        c.agentsmd_content_append(out, content, content_len) != c.AGENTSMD_STATUS_OK)
    {
        const why = "the library refused the content";
        _ = c.agentsmd_message_set(message, why, why.len);
        return @intCast(c.AGENTSMD_CALLBACK_STATUS_ERROR);
    }
    return @intCast(c.AGENTSMD_CALLBACK_STATUS_OK);
}

var releases: u32 = 0;

fn release(_: ?*anyopaque) callconv(.C) void {
    releases += 1;
}

/// SPEC.md §5 on the fixture tree, which it only reads.
fn composition(tree: []const u8, start: []const u8) !void {
    const options = c.agentsmd_options_new() orelse return error.OutOfMemory;
    var err: ?*c.agentsmd_error = null;
    const names = [_]c.agentsmd_bytes{ bytes("AGENTS.override.md"), bytes("AGENTS.md") };
    try check(c.agentsmd_options_set_names(options, &names, names.len, &err), err);
    try check(c.agentsmd_options_set_root(options, tree.ptr, tree.len, &err), err);
    const fragments = [_]c.agentsmd_bytes{bytes(".agents/AGENTS.d")};
    try check(c.agentsmd_options_set_fragments(options, &fragments, fragments.len, &err), err);
    try check(c.agentsmd_options_set_imports(options, 1, &err), err);
    try check(c.agentsmd_options_set_nearest(options, 1, &err), err);
    try check(c.agentsmd_options_set_report(options, 1, &err), err);
    const transform = c.agentsmd_transform{ .userdata = null, .transform = prefix, .release = release };
    try check(c.agentsmd_options_set_transform(options, &transform, &err), err);

    var result: ?*c.agentsmd_result = null;
    try check(c.agentsmd_chain(start.ptr, start.len, options, &result, &err), err);
    defer c.agentsmd_result_free(result);
    // Nearest: one file, the others superseded by it.
    try expect(c.agentsmd_result_file_count(result) == 1);
    var file: c.agentsmd_file = undefined;
    try check(c.agentsmd_result_file(result, 0, &file, &err), err);
    try expect(std.mem.startsWith(u8, slice(file.content), "Z:"));
    var source: c.agentsmd_source = 0;
    try check(c.agentsmd_result_file_source(result, 0, &source, &err), err);
    try expect(source == c.AGENTSMD_SOURCE_CHAIN);
    var superseded: usize = 0;
    for (0..c.agentsmd_result_omitted_count(result)) |i| {
        var omitted: c.agentsmd_omitted = undefined;
        try check(c.agentsmd_result_omitted(result, i, &omitted, &err), err);
        if (omitted.reason == c.AGENTSMD_REASON_SUPERSEDED) {
            try std.testing.expectEqualStrings(slice(file.path), slice(omitted.by));
            superseded += 1;
        }
    }
    try expect(superseded > 0);
    // The report: the tree's root file first, and each fragment directory looked at.
    try expect(c.agentsmd_result_probe_count(result) > 0);
    var probe: c.agentsmd_probe = undefined;
    try check(c.agentsmd_result_probe(result, 0, &probe, &err), err);
    try expect(std.mem.startsWith(u8, slice(probe.path), tree));
    try expect(c.agentsmd_result_import_count(result) == 0);

    c.agentsmd_options_free(options);
    try expect(releases == 1);

    // overlay_dir: NULL and OK for no overlay; a traversing identity refused.
    var buffer: ?*c.agentsmd_buffer = null;
    try check(c.agentsmd_overlay_dir("/u", 2, "", 0, &buffer, &err), err);
    try expect(buffer == null);
    try check(c.agentsmd_overlay_dir("/u", 2, "ada", 3, &buffer, &err), err);
    try std.testing.expectEqualStrings("/u/ada/.agents", c.agentsmd_buffer_data(buffer)[0..c.agentsmd_buffer_len(buffer)]);
    c.agentsmd_buffer_free(buffer);
    try expect(c.agentsmd_overlay_dir("/u", 2, "../x", 4, &buffer, &err) == c.AGENTSMD_STATUS_INVALID_ARGUMENT);
    try expect(std.mem.indexOf(u8, std.mem.span(c.agentsmd_error_message(err)), "caller identity") != null);
    c.agentsmd_error_free(err);
}
