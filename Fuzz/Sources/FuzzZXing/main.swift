import FuzzSupport

@_cdecl("FuzzZXing_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  FuzzDriver.run("zxing", argc: argc, argv: argv)
}
