"""zip.py ARCHIVE EPOCH DIR [--prefix P]: DIR's files into the zip ARCHIVE, named relative to DIR
(after P, when given: a Go module zip names each file MODULE@VERSION/PATH), in name order, dated
EPOCH, with their Unix modes (so that bin/ stays executable where unzip keeps them). Links are
stored as the files they point to, since Windows archives and Go modules have none."""

import os
import sys
import time
import zipfile


def main():
    archive, epoch, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    prefix = sys.argv[5] if sys.argv[4:5] == ["--prefix"] else ""
    date = time.gmtime(max(epoch, 315532800))[:6]  # zip dates start in 1980
    names = []
    for directory, dirs, files in os.walk(root):
        dirs.sort()
        for name in files:
            names.append(os.path.relpath(os.path.join(directory, name), root))
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for name in sorted(names):
            path = os.path.join(root, name)
            info = zipfile.ZipInfo(prefix + name.replace(os.sep, "/"), date)
            info.external_attr = (os.stat(path).st_mode & 0o777 | 0o100000) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as f:
                out.writestr(info, f.read())


if __name__ == "__main__":
    main()
