/// Which items of a HEIF file decoding its primary image pulls in, read straight from the `meta`
/// box. libheif 1.15 follows a derived image's references (`dimg`: a grid's tiles, an overlay's
/// layers) and an image's auxiliary images (`auxl`: alpha, depth) without checking for cycles or
/// counting the work, so a grid that names itself as its own tile recurses (a thread per tile)
/// until the process runs out of memory or stack, and grids of grids multiply their tiles. Its
/// public API does not expose item references, hence this reader, which parses `iref` the way
/// libheif does. It also reads the output size a grid or overlay declares in its own data (`iloc`,
/// `idat`): libheif allocates that canvas whatever the item's `ispe` says, and the pixel limit
/// only sees `ispe`. Malformed boxes are otherwise left for libheif to reject.
struct HEIFItemGraph {
  /// An identity-derived grid with an alpha grid is four levels; real files never go deeper.
  static let maximumDerivationDepth = 4
  /// A 256 × 256 grid (the most `ispe` and the pixel limit allow in practice) with its alpha.
  static let maximumDecodes = 140_000

  private(set) var primaryItem: UInt32?
  /// Decoding the key item decodes each of its values first (a value may repeat: a reused tile).
  private(set) var inputs: [UInt32: [UInt32]] = [:]
  /// Each item's `infe` type; nil for an item declared twice with different types.
  private(set) var itemTypes: [UInt32: String?] = [:]
  /// The item types libheif 1.15 makes images of; it asserts (aborting the process) when a derived
  /// image names any other item as an input.
  static let imageItemTypes: Set<String> = ["hvc1", "av01", "grid", "iden", "iovl"]
  private var auxiliaryEdges: [(master: UInt32, auxiliary: UInt32)] = []
  /// The output size each grid (`grid`) and overlay (`iovl`) item declares in its data.
  private(set) var canvases: [UInt32: (width: Int, height: Int)] = [:]
  private var locations: [UInt32: ItemLocation] = [:]
  /// The payload of the first `idat` in `meta`, where items with construction method 1 live.
  private var itemDataBox: Range<Int>?

  init(_ data: UnsafeRawBufferPointer) {
    var reader = BoxReader(data, range: 0..<data.count)
    while let box = reader.next() {
      // Every `meta` is read: libheif uses the first, and a union can only refuse more.
      if box.type == "meta", box.payload.count >= 4 { readMeta(data, box.payload.dropFirst(4)) }
    }
    for edge in auxiliaryEdges where isImage(edge.auxiliary) {
      inputs[edge.master, default: []].append(edge.auxiliary)
    }
    for case (let item, let type?) in itemTypes {
      guard let sizeOffset = Self.canvasSizeOffsets[type] else { continue }
      // Two sizes of at most 4 bytes each follow the offset.
      if let canvas = Self.canvas(in: itemData(item, data, upTo: sizeOffset + 8), sizeOffset: sizeOffset) {
        canvases[item] = canvas
      }
    }
  }

  /// Why decoding the primary image would allocate a canvas larger than the image itself
  /// (`width` × `height`, the size libheif reports from `ispe` and the pixel limit checked); nil
  /// when every grid and overlay it decodes fits. Compares pixels and the longer side, so the
  /// image's rotation does not matter.
  func canvasRefusal(width: Int, height: Int) -> String? {
    guard let primaryItem else { return nil }
    var seen: Set<UInt32> = [primaryItem]
    var pending = [primaryItem]
    while let item = pending.popLast() {
      // The longer side first: within it, the product cannot overflow.
      if let canvas = canvases[item],
        max(canvas.width, canvas.height) > max(width, height) || canvas.width * canvas.height > width * height
      {
        return "item \(item) declares a \(canvas.width) × \(canvas.height) canvas in its data, larger than "
          + "the \(width) × \(height) image"
      }
      for input in inputs[item] ?? [] where seen.insert(input).inserted { pending.append(input) }
    }
    return nil
  }

  /// Why libheif would never finish decoding the primary image, or would abort the process doing
  /// it; nil when its references are finite and name images.
  func refusal() -> String? {
    guard let primaryItem else { return nil }
    // How many images decoding each finished item decodes, itself included, tiles counted as
    // often as a grid uses them.
    var decodes: [UInt32: Int] = [:]
    var onPath = Set<UInt32>()
    // Depth-first with an explicit stack, so a hostile chain cannot overflow ours either.
    var stack: [(item: UInt32, nextInput: Int, decodes: Int)] = [(primaryItem, 0, 1)]
    onPath.insert(primaryItem)
    let tooManyDecodes = "its grids would decode more than \(Self.maximumDecodes) images"
    while let top = stack.last {
      let itemInputs = inputs[top.item] ?? []
      guard top.nextInput < itemInputs.count else {
        stack.removeLast()
        onPath.remove(top.item)
        decodes[top.item] = top.decodes
        guard let parent = stack.indices.last else { continue }
        stack[parent].decodes += top.decodes
        if stack[parent].decodes > Self.maximumDecodes { return tooManyDecodes }
        continue
      }
      stack[stack.count - 1].nextInput += 1
      let input = itemInputs[top.nextInput]
      guard isImage(input) else {
        return "item \(top.item) is derived from item \(input), which is not an image"
      }
      if onPath.contains(input) {
        return "item \(input) is derived from itself (a reference cycle)"
      }
      if let known = decodes[input] {
        stack[stack.count - 1].decodes += known
        if stack[stack.count - 1].decodes > Self.maximumDecodes { return tooManyDecodes }
        continue
      }
      if stack.count >= Self.maximumDerivationDepth {
        return "its images are derived more than \(Self.maximumDerivationDepth) levels deep"
      }
      onPath.insert(input)
      stack.append((input, 0, 1))
    }
    return nil
  }

  private func isImage(_ item: UInt32) -> Bool {
    guard let declared = itemTypes[item], let type = declared else { return false }
    return Self.imageItemTypes.contains(type)
  }

  private mutating func readMeta(_ data: UnsafeRawBufferPointer, _ range: Range<Int>) {
    var reader = BoxReader(data, range: range)
    while let box = reader.next() {
      switch box.type {
      case "pitm":
        var fields = FieldReader(data, range: box.payload)
        guard let version = fields.versionAndFlags(),
          let item = fields.itemID(wide: version != 0)
        else { continue }
        primaryItem = primaryItem ?? item
      case "iref":
        readItemReferences(data, box.payload)
      case "iinf":
        readItemInformation(data, box.payload)
      case "iloc":
        readItemLocations(data, box.payload)
      case "idat":
        itemDataBox = itemDataBox ?? box.payload
      default:
        continue
      }
    }
  }

  private mutating func readItemInformation(_ data: UnsafeRawBufferPointer, _ range: Range<Int>) {
    var header = FieldReader(data, range: range)
    guard let version = header.versionAndFlags(), header.itemID(wide: version != 0) != nil
    else { return }
    var reader = BoxReader(data, range: header.remaining)
    while let entry = reader.next() {
      guard entry.type == "infe" else { continue }
      var fields = FieldReader(data, range: entry.payload)
      // Versions 0 and 1 carry no item type; libheif gives those items none.
      guard let entryVersion = fields.versionAndFlags(),
        let item = fields.itemID(wide: entryVersion == 3),
        fields.uint16() != nil
      else { continue }
      let type = entryVersion >= 2 ? fields.uint32().map(fourCharacterCode) ?? "" : ""
      if let known = itemTypes[item], known != type {
        itemTypes[item] = .some(nil)
      } else {
        itemTypes[item] = type
      }
    }
  }

  /// As libheif's Box_iref::parse: each reference's own box size is read but not obeyed; its item
  /// IDs are read one after another up to the end of the `iref` box.
  private mutating func readItemReferences(_ data: UnsafeRawBufferPointer, _ range: Range<Int>) {
    var fields = FieldReader(data, range: range)
    guard let version = fields.versionAndFlags() else { return }
    while !fields.remaining.isEmpty {
      guard let size = fields.uint32(), let typeCode = fields.uint32() else { return }
      if size == 1 { _ = fields.uint64() }
      let type = fourCharacterCode(typeCode)
      if type == "uuid" { _ = (fields.uint64(), fields.uint64()) }
      guard let from = fields.itemID(wide: version != 0), let count = fields.uint16() else { return }
      for _ in 0..<count {
        guard let to = fields.itemID(wide: version != 0) else { return }
        switch type {
        case "dimg": inputs[from, default: []].append(to)
        // An auxiliary image (alpha, depth) names its master; decoding the master decodes it.
        // libheif attaches only auxiliary images, so that edge is checked when the graph is read.
        case "auxl": auxiliaryEdges.append((master: to, auxiliary: from))
        default: break
        }
      }
    }
  }
}

extension HEIFItemGraph {
  /// Where an item's bytes are: extents from the file's start (construction method 0) or from the
  /// start of `idat` (method 1), each after a base offset.
  private struct ItemLocation {
    var constructionMethod: UInt32
    var baseOffset: UInt64
    var extents: [(offset: UInt64, length: UInt64)]
  }

  /// As libheif's Box_iloc::parse; the first entry for an item wins, as in its lookup.
  private mutating func readItemLocations(_ data: UnsafeRawBufferPointer, _ range: Range<Int>) {
    var fields = FieldReader(data, range: range)
    guard let version = fields.versionAndFlags(), let sizes = fields.uint16() else { return }
    let offsetSize = Int(sizes >> 12 & 0xF)
    let lengthSize = Int(sizes >> 8 & 0xF)
    let baseOffsetSize = Int(sizes >> 4 & 0xF)
    let indexSize = version >= 1 ? Int(sizes & 0xF) : 0
    guard let count = fields.itemID(wide: version >= 2) else { return }
    for _ in 0..<count {
      guard let item = fields.itemID(wide: version >= 2) else { return }
      var location = ItemLocation(constructionMethod: 0, baseOffset: 0, extents: [])
      if version >= 1 {
        guard let method = fields.uint16() else { return }
        location.constructionMethod = method & 0xF
      }
      guard fields.uint16() != nil, let base = fields.unsigned(bytes: baseOffsetSize),
        let extentCount = fields.uint16()
      else { return }
      location.baseOffset = base
      for _ in 0..<extentCount {
        guard fields.unsigned(bytes: indexSize) != nil, let offset = fields.unsigned(bytes: offsetSize),
          let length = fields.unsigned(bytes: lengthSize)
        else { return }
        location.extents.append((offset, length))
      }
      if locations[item] == nil { locations[item] = location }
    }
  }

  /// The first `limit` bytes of an item's data (fewer when it is shorter or out of bounds).
  private func itemData(_ item: UInt32, _ data: UnsafeRawBufferPointer, upTo limit: Int) -> [UInt8] {
    guard let location = locations[item] else { return [] }
    let container: Range<Int>
    switch location.constructionMethod {
    case 0: container = 0..<data.count
    case 1:
      guard let itemDataBox else { return [] }
      container = itemDataBox
    default: return []
    }
    var bytes: [UInt8] = []
    for extent in location.extents where bytes.count < limit {
      let (start, overflow) = location.baseOffset.addingReportingOverflow(extent.offset)
      guard !overflow, start < UInt64(container.count) else { return bytes }
      let available = UInt64(container.count) - start
      // A length of 0 means "to the end" of the file or of `idat`.
      let length = Int(extent.length == 0 ? available : min(extent.length, available))
      let from = container.lowerBound + Int(start)
      bytes += data[from..<(from + min(length, limit - bytes.count))]
    }
    return bytes
  }

  /// Where ImageGrid::parse and ImageOverlay::parse read the output size in an item's data: after
  /// version and flags (bit 0: 32-bit sizes), a grid has rows − 1 and columns − 1, an overlay four
  /// 16-bit fill channels.
  private static let canvasSizeOffsets: [String: Int] = ["grid": 4, "iovl": 10]

  private static func canvas(in bytes: [UInt8], sizeOffset: Int) -> (width: Int, height: Int)? {
    guard bytes.count > sizeOffset else { return nil }
    let field = bytes[1] & 1 == 1 ? 4 : 2
    return bytes.withUnsafeBytes { raw in
      var fields = FieldReader(raw, range: sizeOffset..<raw.count)
      guard let width = fields.unsigned(bytes: field), let height = fields.unsigned(bytes: field) else {
        return nil
      }
      return (Int(width), Int(height))
    }
  }
}

private func fourCharacterCode(_ code: UInt32) -> String {
  String(decoding: withUnsafeBytes(of: code.bigEndian) { Array($0) }, as: UTF8.self)
}

/// ISO BMFF boxes in a byte range: size, four-character type, payload.
private struct BoxReader {
  struct Box {
    let type: String
    let payload: Range<Int>
  }

  private let data: UnsafeRawBufferPointer
  private var fields: FieldReader

  init(_ data: UnsafeRawBufferPointer, range: Range<Int>) {
    self.data = data
    fields = FieldReader(data, range: range)
  }

  mutating func next() -> Box? {
    let start = fields.offset
    guard let size32 = fields.uint32(), let typeCode = fields.uint32() else { return nil }
    var size = Int(size32)
    if size32 == 1 {
      guard let size64 = fields.uint64(), size64 <= UInt64(Int.max) else { return nil }
      size = Int(size64)
    } else if size32 == 0 {
      size = fields.end - start
    }
    let headerLength = fields.offset - start
    guard size >= headerLength, size <= fields.end - start else { return nil }
    fields.skip(to: start + size)
    return Box(type: fourCharacterCode(typeCode), payload: (start + headerLength)..<(start + size))
  }
}

/// Big-endian integers from a byte range; nil past its end.
private struct FieldReader {
  private let data: UnsafeRawBufferPointer
  private(set) var offset: Int
  let end: Int

  init(_ data: UnsafeRawBufferPointer, range: Range<Int>) {
    self.data = data
    offset = range.lowerBound
    end = min(range.upperBound, data.count)
  }

  var remaining: Range<Int> { offset..<max(offset, end) }

  mutating func skip(to position: Int) { offset = position }

  /// A FullBox header: the version byte, then three bytes of flags.
  mutating func versionAndFlags() -> UInt8? { uint32().map { UInt8($0 >> 24) } }

  mutating func uint16() -> UInt32? { integer(bytes: 2).map(UInt32.init) }
  mutating func uint32() -> UInt32? { integer(bytes: 4).map(UInt32.init) }
  mutating func uint64() -> UInt64? { integer(bytes: 8) }
  /// Item IDs and counts are 16 bits in a box's version 0 and 32 bits in later ones.
  mutating func itemID(wide: Bool) -> UInt32? { wide ? uint32() : uint16() }
  /// An `iloc` field of 0 to 8 bytes; 0 bytes reads as 0.
  mutating func unsigned(bytes: Int) -> UInt64? { bytes <= 8 ? integer(bytes: bytes) : nil }

  private mutating func integer(bytes: Int) -> UInt64? {
    guard offset >= 0, end - offset >= bytes else { return nil }
    var value: UInt64 = 0
    for index in offset..<(offset + bytes) { value = value << 8 | UInt64(data[index]) }
    offset += bytes
    return value
  }
}
