import FuzzSupport

@_cdecl("FuzzTesseract_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  FuzzDriver.run("tesseract", argc: argc, argv: argv)
}
