import FuzzSupport

@_cdecl("FuzzWebP_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  FuzzDriver.run("webp", argc: argc, argv: argv)
}
