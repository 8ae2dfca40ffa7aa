extension String {
  /// Text from a NUL-terminated C buffer that a C library filled.
  init(cBuffer buffer: [CChar]) {
    self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
