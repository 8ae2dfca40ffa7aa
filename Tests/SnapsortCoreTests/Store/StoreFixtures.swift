import Foundation
import SnapsortCore
import SnapsortImaging
import SnapsortNative
import SnapsortOutputs
import SnapsortStages
import SnapsortTools

/// Records built in code for store, report and export tests.
enum StoreFixtures {
  static func card(
    _ file: String, name: String?, issuer: (id: String, name: String)? = nil, code: (String, String)? = nil,
    text: [String] = [], color: String = "#1b7f3a", crop: String? = nil
  ) -> Record {
    var record = Record(file: file, sha256: sha(file))
    record.kind = .card
    record.image = ImageInfo(width: 400, height: 300, orientation: 1, format: "jpeg")
    var card = CardRecord()
    card.quad = [[40, 30], [360, 40], [350, 250], [50, 240]]
    card.confidence = 0.9
    card.crop = crop
    card.colors = [ColorShare(hex: color, share: 0.6), ColorShare(hex: "#f4f1e8", share: 0.3)]
    card.name = NameSuggestion(suggested: name, alternatives: [])
    card.text = text.enumerated().map {
      TextLine(text: $1, box: [0, Double($0) * 20, 100, 18], confidence: 90)
    }
    if let issuer {
      card.issuer = IssuerMatch(id: issuer.id, name: issuer.name, confidence: 0.8, alternatives: [])
    }
    if let code {
      var barcode = BarcodeRecord(symbology: code.0, value: code.1)
      barcode.checksumOK = true
      card.barcodes = [barcode]
    } else {
      card.barcodes = []
    }
    record.card = card
    return record
  }

  static func receipt(
    _ file: String, merchant: String, date: String, total: Money, items: [(String, Money)],
    text: [String] = []
  ) -> Record {
    var record = Record(file: file, sha256: sha(file))
    record.kind = .receipt
    record.image = ImageInfo(width: 600, height: 1600, orientation: 1, format: "jpeg")
    var receipt = ReceiptRecord()
    receipt.merchant = merchant
    receipt.date = date
    receipt.total = total
    receipt.currency = "EUR"
    receipt.items = items.map { ReceiptItem(description: $0.0, quantity: "1", unitPrice: $0.1, amount: $0.1) }
    receipt.checks = ReceiptChecks(itemsMatchSubtotal: true, totalsConsistent: nil, problems: [])
    receipt.text = text.enumerated().map {
      TextLine(text: $1, box: [0, Double($0) * 20, 100, 18], confidence: 90)
    }
    record.receipt = receipt
    return record
  }

  static func failure(_ file: String, message: String) -> Record {
    var record = Record(file: file, sha256: sha(file))
    record.status = .error
    record.error = RecordError(stage: "load", message: message)
    return record
  }

  /// A stand-in content hash: distinct per name, stable across calls.
  static func sha(_ seed: String) -> String {
    var hash: UInt64 = 1_469_598_103_934_665_603
    for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
    return String(repeating: String(format: "%016llx", hash), count: 4)
  }

  static let sample: [Record] = [
    card(
      "cards/green.jpg", name: "Green Basket", issuer: ("green-basket", "Green Basket"),
      code: ("ean13", "5901234123457"),
      text: ["GREEN BASKET", "Club Card", "member since 2019"]),
    card(
      "cards/coffee.jpg", name: "Kaffeerösterei Brühl", code: ("code128", "KR-00042"),
      text: ["Kaffeerösterei Brühl", "Stempelkarte"]),
    card("cards/nocode.jpg", name: "Mystery", text: ["MYSTERY CLUB"]),
    receipt(
      "receipts/r1.jpg", merchant: "Green Basket", date: "2024-03-05", total: "12.50",
      items: [("Coffee beans", "8.00"), ("Milk", "4.50")],
      text: ["GREEN BASKET", "Coffee beans 8.00", "Milk 4.50"]),
    receipt(
      "receipts/r2.jpg", merchant: "Tea House", date: "2024-04-11", total: "7.20",
      items: [("Green tea", "3.60"), ("Green tea", "3.60")], text: ["TEA HOUSE", "Green tea 3.60"]),
    receipt(
      "receipts/r3.jpg", merchant: "Green Basket", date: "2024-04-20", total: "30.05",
      items: [("Milk", "4.50"), ("Decaf coffee", "25.55")], text: ["GREEN BASKET", "Decaf coffee 25.55"]),
    failure("bad/corrupt.png", message: "not a PNG: bad signature"),
  ]
}
