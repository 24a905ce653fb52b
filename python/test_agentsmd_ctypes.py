"""The library as a Python scripting host loads it: through agentsmd_ctypes, on the fixture
tree, with the library's own file system and with one written in Python, and loaded and
unloaded again and again.

    AGENTSMD_LIBRARY=target/debug/libagentsmd.so python3 python/test_agentsmd_ctypes.py

tests/consumers.rs runs it with the library `cargo test` built.
"""

import ctypes
import os
import re
import stat
import tempfile
import unittest
from ctypes import c_void_p

import agentsmd_ctypes as am

LIBRARY = os.environ["AGENTSMD_LIBRARY"]
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__))).encode()
TREE = REPO + b"/testdata/tree"
START = TREE + b'/a/b/c&"d"/new.txt'
NAMES = (b"AGENTS.override.md", b"AGENTS.md")
with open(REPO + b"/testdata/golden/render.txt", "rb") as golden_file:
    GOLDEN = golden_file.read()
with open(REPO + b"/include/agentsmd.h") as header_file:
    HEADER = header_file.read()


def escaped(path: bytes) -> bytes:
    for raw, entity in ((b"&", b"&amp;"), (b"<", b"&lt;"), (b">", b"&gt;"), (b'"', b"&quot;")):
        path = path.replace(raw, entity)
    return path


# The golden rendering names the files relative to the tree; on the OS file system they are
# absolute.
EXPECTED = GOLDEN.replace(b'path="', b'path="' + escaped(TREE) + b"/")


def mapped(path: str) -> bool:
    """Whether the library at `path` is loaded in this process (RTLD_NOLOAD never loads it)."""
    try:
        handle = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_NOLOAD)
    except OSError:
        return False
    am.unload(handle)  # the reference RTLD_NOLOAD took
    return True


class DirFs:
    """An agentsmd_fs in Python over a real directory: what a host whose files are elsewhere
    (a container, a remote workspace) would write."""

    def __init__(self, lib, root: bytes):
        self.lib, self.root = lib, root
        self.open_files, self.next_handle, self.released = {}, 1, 0
        # The callback objects live as long as this object, which outlives the options.
        self.struct = am.Fs(
            None,
            am.ListFn(self.list),
            am.StatFn(self.stat),
            am.OpenFn(self.open),
            am.ReadFn(self.read),
            am.CloseFn(self.close),
            am.ReleaseFn(self.release),
        )

    def path(self, name, length) -> bytes:
        return os.path.join(self.root, ctypes.string_at(name, length))

    def failure(self, err: OSError, message) -> int:
        if isinstance(err, FileNotFoundError):
            return am.CALLBACK_STATUS_NOT_FOUND
        return am.failed(self.lib, message, err)

    def list(self, _userdata, directory, length, listing, message):
        try:
            entries = os.listdir(self.path(directory, length))
        except OSError as err:
            return self.failure(err, message)
        for entry in entries:
            if self.lib.agentsmd_listing_push(listing, entry, len(entry)) != am.STATUS_OK:
                return am.CALLBACK_STATUS_ERROR
        return am.CALLBACK_STATUS_OK

    def stat(self, _userdata, name, length, kind_out, size_out, message):
        try:
            st = os.stat(self.path(name, length))
        except OSError as err:
            return self.failure(err, message)
        kind_out[0] = (
            am.ENTRY_KIND_FILE if stat.S_ISREG(st.st_mode)
            else am.ENTRY_KIND_DIR if stat.S_ISDIR(st.st_mode)
            else am.ENTRY_KIND_OTHER
        )
        size_out[0] = st.st_size
        return am.CALLBACK_STATUS_OK

    def open(self, _userdata, name, length, file_out, message):
        try:
            file = open(self.path(name, length), "rb")
        except OSError as err:
            return self.failure(err, message)
        handle, self.next_handle = self.next_handle, self.next_handle + 1
        self.open_files[handle] = file
        file_out[0] = handle
        return am.CALLBACK_STATUS_OK

    def read(self, _userdata, handle, buffer, capacity, read_out, message):
        try:
            data = self.open_files[handle].read(capacity)
        except OSError as err:
            return self.failure(err, message)
        ctypes.memmove(buffer, data, len(data))
        read_out[0] = len(data)
        return am.CALLBACK_STATUS_OK

    def close(self, _userdata, handle):
        self.open_files.pop(handle).close()

    def release(self, _userdata):
        self.released += 1


class CtypesTest(unittest.TestCase):
    def setUp(self):
        self.lib = am.load(LIBRARY)
        self.error = c_void_p()
        # Cleanups run last registered first: this one after every free a test registers.
        self.addCleanup(lambda: am.unload(self.lib))

    def ok(self, status):
        am.check(self.lib, status, self.error)

    def options(self, root: bytes = TREE):
        options = self.lib.agentsmd_options_new()
        self.assertTrue(options)
        self.addCleanup(self.lib.agentsmd_options_free, options)
        names = (am.Bytes * 2)(*(am.Bytes.of(name) for name in NAMES))
        self.ok(self.lib.agentsmd_options_set_names(options, names, 2, self.error))
        self.ok(self.lib.agentsmd_options_set_root(options, root, len(root), self.error))
        return options

    def chain(self, path: bytes, options) -> c_void_p:
        result = c_void_p()
        self.ok(self.lib.agentsmd_chain(path, len(path), options, result, self.error))
        self.addCleanup(self.lib.agentsmd_result_free, result)
        return result

    def render(self, result) -> bytes:
        buffer = c_void_p()
        self.ok(self.lib.agentsmd_result_render(result, buffer, self.error))
        try:
            data = self.lib.agentsmd_buffer_data(buffer)
            return ctypes.string_at(data, self.lib.agentsmd_buffer_len(buffer))
        finally:
            self.lib.agentsmd_buffer_free(buffer)

    def test_every_public_function_and_enum_value_is_declared(self):
        public = re.sub(r"#if defined\(AGENTSMD_TEST_HOOKS\).*?#endif", "", HEADER, flags=re.S)
        code = "\n".join(
            line for line in public.splitlines() if not line.lstrip().startswith(("/*", "*", "//"))
        )
        self.assertEqual(set(re.findall(r"\b(agentsmd_\w+)\(", code)), set(am.SIGNATURES))
        for name, value in re.findall(r"^\s*AGENTSMD_(\w+) = (\d+),", HEADER, flags=re.M):
            self.assertEqual(getattr(am, name), int(value), name)

    def test_chain_renders_the_fixture_tree(self):
        version = re.search(r'#define AGENTSMD_VERSION "(.*)"', HEADER).group(1)
        self.assertEqual(self.lib.agentsmd_version().decode(), version)
        result = self.chain(START, self.options())
        self.assertEqual(self.render(result), EXPECTED)
        self.assertEqual(am.instructions(self.lib, START, TREE, NAMES), EXPECTED)

        # The files with paths relative to the tree, rendered by the caller: the golden bytes.
        count = self.lib.agentsmd_result_file_count(result)
        files = (am.File * count)()
        relative = []  # the new paths' bytes, alive until the rendering
        for i in range(count):
            self.ok(self.lib.agentsmd_result_file(result, i, files[i], self.error))
            path = files[i].path.value()
            self.assertTrue(path.startswith(TREE + b"/"), path)
            relative.append(path[len(TREE) + 1 :])
            files[i].path = am.Bytes.of(relative[-1])
        buffer = c_void_p()
        self.ok(self.lib.agentsmd_render(files, count, buffer, self.error))
        rendered = ctypes.string_at(
            self.lib.agentsmd_buffer_data(buffer), self.lib.agentsmd_buffer_len(buffer)
        )
        self.lib.agentsmd_buffer_free(buffer)
        self.assertEqual(rendered, GOLDEN)

        self.assertEqual(self.lib.agentsmd_result_omitted_count(result), 1)
        omitted = am.Omitted()
        self.ok(self.lib.agentsmd_result_omitted(result, 0, omitted, self.error))
        self.assertEqual(omitted.reason, am.REASON_SHADOWED)
        self.assertEqual(omitted.path.value(), TREE + b"/a/AGENTS.md")
        self.assertEqual(omitted.by.value(), TREE + b"/a/AGENTS.override.md")
        self.assertEqual(omitted.size, os.path.getsize(TREE + b"/a/AGENTS.md"))

    def test_a_failure_raises_with_the_library_message(self):
        with self.assertRaises(am.AgentsmdError) as raised:
            am.instructions(self.lib, b"/elsewhere", TREE, NAMES)
        self.assertEqual(raised.exception.status, am.STATUS_INVALID_ARGUMENT)
        self.assertIn("/elsewhere", str(raised.exception))

    def test_a_file_system_written_in_python(self):
        fs = DirFs(self.lib, TREE)
        options = self.lib.agentsmd_options_new()
        try:
            self.ok(self.lib.agentsmd_options_set_fs(options, fs.struct, self.error))
            names = (am.Bytes * 2)(*(am.Bytes.of(name) for name in NAMES))
            self.ok(self.lib.agentsmd_options_set_names(options, names, 2, self.error))
            result = self.chain(b'a/b/c&"d"/new.txt', options)
            self.assertEqual(self.render(result), GOLDEN)  # FS names: the golden bytes
            self.assertEqual(fs.open_files, {})
        finally:
            self.lib.agentsmd_options_free(options)
        self.assertEqual(fs.released, 1)

    def test_a_document_and_its_block(self):
        text = b"---\nskills: [s, gone]\n---\n# A\na\n# Big\n" + b"x" * 3000 + b"\n## Skill: s\nS.\n"
        document = c_void_p()
        self.ok(self.lib.agentsmd_parse(
            text, len(text), None, 0, None, None, 0, document, self.error))
        self.addCleanup(self.lib.agentsmd_document_free, document)
        self.assertEqual(self.lib.agentsmd_document_unit_count(document), 2)
        unit = am.Unit()
        self.ok(self.lib.agentsmd_document_unit(document, 1, unit, self.error))
        self.assertEqual(unit.title.value(), b"Big")
        skill = am.Skill()
        self.ok(self.lib.agentsmd_document_skill(document, 0, skill, self.error))
        self.assertEqual((skill.name.value(), skill.text.value(), bool(skill.path.ptr)),
                         (b"s", b"S.\n", False))
        name = am.Bytes()
        self.ok(self.lib.agentsmd_document_unknown(document, 0, name, self.error))
        self.assertEqual(name.value(), b"gone")
        options = am.BlockOptions(cap=2048, where=am.Bytes.of(b"/repo/AGENTS.md"))
        block = c_void_p()
        self.ok(self.lib.agentsmd_document_block(document, options, block, self.error))
        self.addCleanup(self.lib.agentsmd_block_free, block)
        data = ctypes.string_at(
            self.lib.agentsmd_block_data(block), self.lib.agentsmd_block_len(block))
        self.assertTrue(data.endswith(b"\n\n# A\na\n\n## Requested Skills\n\n### s\n\nS.\n"), data)
        self.assertIn(b"read /repo/AGENTS.md for the full", data)
        dropped = am.Dropped()
        self.ok(self.lib.agentsmd_block_dropped(block, 0, dropped, self.error))
        self.assertEqual((dropped.title.value(), dropped.bytes), (b"Big", 3007))

    def test_the_nearest_document_and_its_path(self):
        with tempfile.TemporaryDirectory() as temp:
            d = temp.encode()
            for rel, text in {"AGENTS.md": "# Root\n", "a/AGENTS.md": "# A\n"}.items():
                os.makedirs(os.path.dirname(os.path.join(temp, rel)), exist_ok=True)
                with open(os.path.join(temp, rel), "w") as f:
                    f.write(text)
            options = self.lib.agentsmd_options_new()
            self.addCleanup(self.lib.agentsmd_options_free, options)
            self.ok(self.lib.agentsmd_options_set_root(options, d, len(d), self.error))
            document = c_void_p()
            path = d + b"/a/x.py"
            self.ok(self.lib.agentsmd_parse_nearest(
                path, len(path), options, None, 0, document, self.error))
            self.addCleanup(self.lib.agentsmd_document_free, document)
            found = am.Bytes()
            self.ok(self.lib.agentsmd_document_path(document, found, self.error))
            self.assertEqual(found.value(), d + b"/a/AGENTS.md")
            unit = am.Unit()
            self.ok(self.lib.agentsmd_document_unit(document, 0, unit, self.error))
            self.assertEqual(unit.title.value(), b"A")

    def test_composition_options_through_chain(self):
        with tempfile.TemporaryDirectory() as temp:
            d = temp.encode()
            for rel, text in {
                "AGENTS.md": "root\n@inc.md\n${env:WHO}\n", "inc.md": "inc\n",
                "a/AGENTS.md": "a\n", "a/AGENTS.d/f.md": "f\n",
                "users/ada/.agents/AGENTS.md": "ada\n",
            }.items():
                os.makedirs(os.path.dirname(os.path.join(temp, rel)), exist_ok=True)
                with open(os.path.join(temp, rel), "w") as f:
                    f.write(text)
            overlay = d + b"/users/ada/.agents"
            out = am.chain(self.lib, d + b"/a/x", root=d, fragments=[b"AGENTS.d"],
                           overlays=[overlay], imports=True, report=True, env={b"WHO": b"ada"})
            self.assertEqual(out["files"], [
                (d + b"/AGENTS.md", b"root\ninc\nada\n", am.SOURCE_CHAIN),
                (d + b"/a/AGENTS.md", b"a\n", am.SOURCE_CHAIN),
                (d + b"/a/AGENTS.d/f.md", b"f\n", am.SOURCE_FRAGMENT),
                (overlay + b"/AGENTS.md", b"ada\n", am.SOURCE_OVERLAY),
            ])
            self.assertEqual(out["imports"], [(d + b"/inc.md", d + b"/AGENTS.md", 2, 1, 4, False)])
            self.assertEqual(out["probes"][:2], [
                (d + b"/AGENTS.md", am.SOURCE_CHAIN, am.OUTCOME_INCLUDED),
                (d + b"/inc.md", am.SOURCE_CHAIN, am.OUTCOME_IMPORTED),
            ])
            out = am.chain(self.lib, d + b"/a/x", root=d, nearest=True)
            self.assertEqual(out["omitted"], [
                (d + b"/AGENTS.md", 24, am.REASON_SUPERSEDED, d + b"/a/AGENTS.md")])
            out = am.chain(self.lib, d + b"/a/x", root=d,
                           transform=lambda path, content: content.upper())
            self.assertEqual([f[1] for f in out["files"]], [b"ROOT\n@INC.MD\n${ENV:WHO}\n", b"A\n"])

            refusal = "no thanks" + "!" * 10000  # a message of any length, carried whole

            def refuse(path, content):
                raise ValueError(refusal)

            with self.assertRaises(am.AgentsmdError) as caught:
                am.chain(self.lib, d + b"/a/x", root=d, transform=refuse)
            self.assertEqual(caught.exception.status, am.STATUS_FS)
            self.assertTrue(str(caught.exception).endswith(refusal))
            with open(os.path.join(temp, "AGENTS.md"), "w") as f:
                f.write("@missing.md\n")
            with self.assertRaises(am.AgentsmdError) as caught:
                am.chain(self.lib, d + b"/a/x", root=d, imports=True)
            self.assertEqual(caught.exception.status, am.STATUS_IMPORT)
            self.assertTrue(str(caught.exception).startswith(temp + "/AGENTS.md:1: "))

    def test_load_and_unload_100_times(self):
        # setUp's reference stays: each cycle takes one more and gives it back.
        am.unload(self.lib)
        self.assertFalse(mapped(LIBRARY), "the library stays mapped once every handle is closed")
        for _ in range(100):
            lib = am.load(LIBRARY)
            self.assertEqual(am.instructions(lib, START, TREE, NAMES), EXPECTED)
            am.unload(lib)
            # glibc keeps a library mapped while a thread holds a thread-local destructor it
            # registered; this library registers none, so dlclose unmaps it.
            self.assertFalse(mapped(LIBRARY), "dlclose left the library mapped")
        self.lib = am.load(LIBRARY)  # for tearDown


if __name__ == "__main__":
    unittest.main()
