import FuzzSupport

@_cdecl("FuzzHEIF_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  FuzzDriver.run("heif", argc: argc, argv: argv)
}
