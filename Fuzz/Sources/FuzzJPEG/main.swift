import FuzzSupport

@_cdecl("FuzzJPEG_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  FuzzDriver.run("jpeg", argc: argc, argv: argv)
}
