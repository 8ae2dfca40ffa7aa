import FuzzSupport

@_cdecl("FuzzLoad_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  FuzzDriver.run("load", argc: argc, argv: argv)
}
