import FuzzSupport

@_cdecl("FuzzConfig_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  FuzzDriver.run("config", argc: argc, argv: argv)
}
