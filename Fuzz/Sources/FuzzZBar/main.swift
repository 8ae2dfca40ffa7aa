import FuzzSupport

@_cdecl("FuzzZBar_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  FuzzDriver.run("zbar", argc: argc, argv: argv)
}
