import Foundation

/// The conditional logit over a header's `MerchantCandidates`, fitted by
/// `bench/receipts/fit_merchant.py`.
public typealias MerchantModel = ConditionalLogit<MerchantCandidates>

extension MerchantCandidates: ConditionalLogitCandidates {
  public static var modelDescription: String { "the merchant model" }
  public static var modelFileName: String { "merchant-model.json" }
}

extension ConditionalLogit where Kind == MerchantCandidates {
  /// Each candidate's probability, in the candidates' order.
  func probabilities(_ candidates: [MerchantCandidates.Candidate]) -> [Double] {
    softmax(candidates.map(\.features))
  }

  /// The candidate to take instead of the rules' answer `rules`, with its probability; nil
  /// where the rules' answer stands: it names a catalog brand, the model's pick is a greeting or
  /// a document title (a bold title is often the tallest row, which the model weighs above the
  /// rules' lexicon), or the pick does not beat the rules' candidate by the margin. Where the
  /// rules found no name the model gives none either: the receipt stage then reads the logo for
  /// a brand, which a name from the model would keep it from doing.
  func override(
    _ candidates: [MerchantCandidates.Candidate], rules: String?, rulesNameBrand: Bool
  ) -> (candidate: MerchantCandidates.Candidate, probability: Double)? {
    guard let rules, !rules.isEmpty, !rulesNameBrand, !candidates.isEmpty else { return nil }
    let probabilities = probabilities(candidates)
    let rulesKey = MerchantCandidates.nameKey(rules)
    let rulesAt = candidates.firstIndex { MerchantCandidates.nameKey($0.value) == rulesKey }
    let allowed = { (index: Int) in
      !ReceiptKeywords.containsAny(ReceiptKeywords.fold(candidates[index].value), Self.headingWords)
    }
    guard let best = overridingIndex(probabilities, rulesAt: rulesAt, allowed: allowed) else { return nil }
    return (candidates[best], probabilities[best])
  }

  /// Greetings and document titles of every receipt language, which the model may not pick.
  private static let headingWords = ReceiptKeywords.greetings + ReceiptKeywords.titles

  /// Whether `name`, the merchant the extractor would give, reads as body text by `words`: the
  /// model finds it improbable among the candidates and its words are those of non-name rows.
  /// False where no candidate gives the name.
  func readsAsBody(_ name: String, among candidates: [MerchantCandidates.Candidate], words: MerchantWords)
    -> Bool
  {
    let key = MerchantCandidates.nameKey(name)
    guard let at = candidates.firstIndex(where: { MerchantCandidates.nameKey($0.value) == key }) else {
      return false
    }
    return words.isBody(candidates[at].value, probability: probabilities(candidates)[at])
  }
}
