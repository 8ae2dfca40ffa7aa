// Generated from presets/*.json and pipeline.json: do not edit by hand. `ConfigTests` checks
// that it matches the files; regenerate with `RECORD_SNAPSHOTS=1 swift test --filter ConfigTests`.

/// The presets and the default pipeline compiled into the binary, the last place
/// `ConfigLocator` looks, so a `snapsort` copied anywhere still has them.
enum BundledConfigs {
  static let files: [String: String] = [
    "pipeline.json": #"""
    {
      "version": 1,
      "description": "Default: cards and barcodes from photos and screenshots; receipts read for merchant, date, items and totals.",
      "kind": "card",
      "stages": [
        {"stage": "load", "max_pixels": 100000000, "analysis_max_side": 1600},
        {"stage": "classify"},
        {"stage": "detect_card", "when": "card"},
        {"stage": "warp", "when": "card"},
        {"stage": "palette", "when": "card"},
        {"stage": "barcode", "when": ["card", "receipt"]},
        {"stage": "ocr", "languages": "eng", "name_languages": "Latin", "when": "card"},
        {"stage": "issuer", "model": "issuer-model.json", "when": "card"},
        {"stage": "receipt_warp", "when": "receipt"},
        {"stage": "receipt", "languages": "eng", "when": "receipt"}
      ]
    }

    """#,
    "presets/cards.json": #"""
    {
      "version": 1,
      "description": "Cards: photos and screenshots of loyalty and payment cards.",
      "kind": "card",
      "stages": [
        {"stage": "load", "max_pixels": 100000000, "analysis_max_side": 1600},
        {"stage": "detect_card"},
        {"stage": "warp"},
        {"stage": "palette"},
        {"stage": "barcode"},
        {"stage": "ocr", "languages": "eng", "name_languages": "Latin"},
        {"stage": "issuer", "model": "issuer-model.json"}
      ]
    }

    """#,
    "presets/receipts.json": #"""
    {
      "version": 1,
      "description": "Receipts: every photo is taken as a receipt; the paper is flattened and read for merchant, date, items and totals.",
      "kind": "receipt",
      "stages": [
        {"stage": "load"},
        {"stage": "receipt_warp"},
        {"stage": "receipt", "languages": "eng"}
      ]
    }

    """#,
    "presets/screenshots.json": #"""
    {
      "version": 1,
      "description": "Screenshots: fast barcode-only import of card screenshots. Codes on screens are large and crisp: the PNG is scanned as decoded (no reduced copy to compute), zxing without try-harder, zbar every second row, and the scan stops at the first code. Enhancement passes run only on small images (thorough_max_pixels), never on a phone-sized screenshot.",
      "kind": "card",
      "stages": [
        {"stage": "load", "analysis_max_side": 2800},
        {"stage": "barcode", "expected_codes": 1, "full_resolution_fallback": false, "scan_density": 2, "zxing_try_harder": false}
      ]
    }

    """#,
  ]
}
