"""Fixes the train / held-out split of ../shared/data/barcodes by FOLDER, before any tuning.

Each format with several upstream folders (code128, datamatrix, ean13, qrcode, upca) gives one
folder, drawn with a fixed seed, to the held-out part; formats with a single folder stay in
training (holding out the only Aztec folder would leave nothing to tune Aztec on). Held-out
folders are only scored, never looked at for tuning. Writes bench/barcodes/split.json.

    python3 bench/barcodes/make_split.py [DATA]
"""
import json, os, random, sys

SEED = 26  # issue #26
DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../shared/data/barcodes")


def main():
    folders = sorted(f for f in os.listdir(DATA) if os.path.isdir(os.path.join(DATA, f)))
    by_format = {}
    for folder in folders:
        by_format.setdefault(folder.rsplit("-", 1)[0], []).append(folder)
    rng = random.Random(SEED)
    held_out = sorted(rng.choice(group) for _, group in sorted(by_format.items()) if len(group) > 1)
    split = {
        "seed": SEED,
        "rule": "one folder per format that has several, drawn with the seed; the rest train",
        "train": [f for f in folders if f not in held_out],
        "held_out": held_out,
    }
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "split.json")
    with open(out, "w") as f:
        json.dump(split, f, indent=2)
        f.write("\n")
    print(json.dumps(split, indent=2))


if __name__ == "__main__":
    main()
