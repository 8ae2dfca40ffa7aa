"""Writes a synthetic snapsort output folder (records.jsonl + run.json) of N records for the
store benchmark: cards with OCR lines, barcodes and issuers, receipts with merchants, dates,
totals and items, and some error records. Deterministic (fixed seed); stdlib only."""
import hashlib
import json
import random
import sys
from pathlib import Path

WORDS = ("coffee tea milk bread butter cheese apples bananas rice pasta tomato onion garlic olive oil "
         "chocolate sugar flour eggs yogurt juice water soap shampoo paper towels batteries bulbs "
         "chicken beef salmon tuna lettuce carrot potato pepper salt vinegar honey jam cereal").split()
MERCHANTS = ["Green Basket", "Tea House", "Żabka", "Kaufland", "Carrefour", "Lidl", "Biedronka", "Rossmann",
             "Tesco", "Aldi", "Netto", "Spar", "Rewe", "Edeka", "Monoprix", "Auchan", "Dm", "Hema"]
ISSUERS = [("green-basket", "Green Basket"), ("zabka", "Żabka"), ("ikea-family", "IKEA Family"),
           ("tesco-clubcard", "Tesco Clubcard"), ("payback", "PAYBACK"), ("lidl-plus", "Lidl Plus")]


def ean13(rng):
    digits = [rng.randrange(10) for _ in range(12)]
    check = (10 - sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10) % 10
    return "".join(map(str, digits + [check]))


def card(rng, i):
    issuer = rng.choice(ISSUERS)
    words = rng.sample(WORDS, 6)
    return {"quad": [[10, 10], [400, 12], [398, 260], [8, 258]], "confidence": 0.9,
            "crop": f"cards/{i:05d}.jpg", "colors": [{"hex": "#%06x" % rng.randrange(1 << 24), "share": 0.6}],
            "barcodes": [{"symbology": "ean13", "value": ean13(rng), "checksum_ok": True}],
            "name": {"suggested": issuer[1], "alternatives": [words[0].title()]},
            "text": [{"text": line, "box": [0, 20 * n, 300, 18], "confidence": 88}
                     for n, line in enumerate([issuer[1].upper(), " ".join(words[:3]), f"member {i}", " ".join(words[3:])])],
            "issuer": {"id": issuer[0], "name": issuer[1], "confidence": 0.8, "alternatives": []},
            "payment": None}


def receipt(rng, i):
    items = []
    for _ in range(rng.randrange(2, 12)):
        amount = rng.randrange(50, 5000)
        items.append({"description": " ".join(rng.sample(WORDS, 2)).title(), "quantity": "1",
                      "unit_price": f"{amount / 100:.2f}", "amount": f"{amount / 100:.2f}"})
    total = sum(round(float(item["amount"]) * 100) for item in items)
    merchant = rng.choice(MERCHANTS)
    date = f"20{rng.randrange(22, 26)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
    lines = [merchant.upper(), date] + [f'{item["description"]} {item["amount"]}' for item in items] + [f"TOTAL {total / 100:.2f}"]
    return {"merchant": merchant, "date": date, "currency": "EUR", "items": items, "subtotal": f"{total / 100:.2f}",
            "savings": None, "tax": None, "total": f"{total / 100:.2f}", "reference_number": f"R{i:06d}",
            "checks": {"items_match_subtotal": True, "totals_consistent": True, "problems": []},
            "text": [{"text": line, "box": [0, 20 * n, 300, 18], "confidence": 85} for n, line in enumerate(lines)]}


def main(out, count):
    rng = random.Random(42)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(count):
        name = f"photos/{i:05d}.jpg"
        record = {"file": name, "sha256": hashlib.sha256(name.encode()).hexdigest(), "status": "ok",
                  "image": {"width": 1600, "height": 1200, "orientation": 1, "format": "jpeg"},
                  "card": None, "receipt": None}
        roll = rng.random()
        if roll < 0.02:
            record.update(kind="unknown", status="error", error={"stage": "load", "message": "not a JPEG: truncated"})
        elif roll < 0.5:
            record.update(kind="card", card=card(rng, i))
        else:
            record.update(kind="receipt", receipt=receipt(rng, i))
        lines.append(json.dumps(record, sort_keys=True, ensure_ascii=False))
    (out / "records.jsonl").write_text("\n".join(lines) + "\n")
    summary = {"version": "bench", "config_hash": "bench", "started_at": "", "wall_seconds": 0, "jobs": 1,
               "counts": {"inputs": count, "ok": count, "error": 0, "skipped": 0, "not_started": 0, "reused": 0},
               "stages": {}, "skipped_files": [], "interrupted": False, "peak_rss_mb": 0}
    (out / "run.json").write_text(json.dumps(summary))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
