#!/usr/bin/python3
"""Writes the seed corpora of the fuzz targets into corpus/NAME (run once; the files are kept in
git). Seeds are small valid inputs and a few known-bad ones from issue 16; libFuzzer mutates
from there."""
import gzip
import os
import shutil
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# ini: the shipped configs and the hostile examples of issue 16.
for f in sorted(os.listdir(os.path.join(ROOT, "sweeps", "configs"))):
    with open(os.path.join(ROOT, "sweeps", "configs", f), "rb") as src:
        put("ini", f, src.read())
put("ini", "small.ini", "trials = 2\nN = 40\nN_test = 50\n[model]\nkind = separate\nm = 8\n"
    "[grid]\nmodel.l = 1,2\nN = 20..80 x2\n")
put("ini", "overflow.ini", "trials = 4294967297\n")
put("ini", "nul.ini", b"trials = 2\nN = 100\x00junk\n")
put("ini", "bom.ini", b"\xef\xbb\xbftrials = 2\n")
put("ini", "huge_grid.ini", "[grid]\nN = 1:99999\ndata.n = 1:99999\nmodel.l = 1:99999\n")
put("ini", "long_axis.ini", "[grid]\nN = 1:1000000\n")
put("ini", "override.ini", "[model]\nkind = separate,joint\n[model.joint]\nk = 4\n")
put("ini", "geometric.ini", "[grid]\nmodel.lr = 0.01..1 x10\n")


def idx_images(count, rows, cols, data=None):
    if data is None:
        data = bytes((i * 7) % 256 for i in range(count * rows * cols))
    return struct.pack(">IIII", 0x803, count, rows, cols) + data


def idx_labels(count):
    return struct.pack(">II", 0x801, count) + bytes(i % 10 for i in range(count))


# idx: first byte even = the file as is, odd = the rest gzip-compressed by the target.
put("idx", "images_plain", b"\x00" + idx_images(3, 4, 4))
put("idx", "images_gz", b"\x01" + idx_images(3, 4, 4))
put("idx", "labels_plain", b"\x00" + idx_labels(12))
put("idx", "labels_gz", b"\x01" + idx_labels(12))
put("idx", "lying_header", b"\x00" + idx_images(0xFFFFFF, 28, 28, b""))
put("idx", "truncated", b"\x01" + idx_images(10, 28, 28, b"x" * 100))
put("idx", "gzip_stream", b"\x00" + gzip.compress(idx_images(2, 3, 3)))


# journal: pass 0 reads the bytes as a journal; pass 1 as a script (see journal_fuzz.cpp).
def record(kind, payload):
    return struct.pack("<IIQI", 0x524A4D50, kind, len(payload), zlib.crc32(payload)) + payload


identity = record(1, b"fuzz identity")
put("journal", "identity_only", identity)
put("journal", "identity_garbage_rows", identity + record(2, b"\x00" * 64) + record(2, b"x" * 9))
put("journal", "torn", identity + record(2, b"\x01" * 40)[:30])
put("journal", "flipped", identity + b"\x00" + record(2, b"\x02" * 40)[1:] + record(2, b"z" * 8))
# Scripts: identity (op 2), then rows of cells 0..2 with fuzzed fields (op 4), raw bytes (op 0).
row = bytes([0]) + b"\x01" + b"\x00" + struct.pack("<d", 0.5) + b"\x03abc" + b"\x01" + struct.pack("<d", 0.25)
put("journal", "script_rows", bytes([2, 4, 2]) + row + row.replace(b"\x01\x00", b"\x07\x03", 1) +
    bytes([0, 5]) + b"hello" + bytes([4, 1, 9]) + b"\x05" * 30)
put("journal", "script_bad_identity", bytes([3, 1, 4]) + b"abcd" + bytes([4, 1]) + row)

# result: scripts of edits (see result_fuzz.cpp): op, column, then the op's bytes.
put("result", "no_edit", b"")
put("result", "key_2d", bytes([1, 1, 1, 2, 2, 5, 1]) + b"\x03abc" * 4)
put("result", "unknown_cell", bytes([0, 6, 0]) + struct.pack("<Q", 12345))
put("result", "trial_out_of_range", bytes([0, 7, 1]) + struct.pack("<i", 3))
put("result", "status_bad", bytes([0, 8, 0, 77]))
put("result", "claims_rows", bytes([5, 9, 0x80, 20]))
put("result", "attr_2d", bytes([3, 0, 8, 3, 2, 1]) + b"\x01a" * 8)
put("result", "trials_negative", bytes([3, 0, 6, 0, 0]) + struct.pack("<q", -5))
put("result", "delete_columns", bytes([2, 0, 2, 1, 4, 0, 8]))
