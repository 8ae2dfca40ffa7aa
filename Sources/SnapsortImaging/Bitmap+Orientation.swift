import SnapsortNative

extension Bitmap {
  /// Applies an EXIF orientation (1–8) so the result is the image as a person sees it.
  ///
  /// Values outside 1–8 (0 and 9 occur in the wild) are treated as 1, as viewers do.
  public func applyingOrientation(_ orientation: Int) -> Bitmap {
    guard (2...8).contains(orientation) else { return self }
    let swapsAxes = orientation >= 5
    let outWidth = swapsAxes ? height : width
    let outHeight = swapsAxes ? width : height
    let c = channels
    return Bitmap(width: outWidth, height: outHeight, format: format) { out in
      pixels.withUnsafeBufferPointer { src in
        for oy in 0..<outHeight {
          for ox in 0..<outWidth {
            // Where in the stored image the displayed pixel (ox, oy) comes from.
            let (sx, sy): (Int, Int)
            switch orientation {
            case 2: (sx, sy) = (width - 1 - ox, oy)
            case 3: (sx, sy) = (width - 1 - ox, height - 1 - oy)
            case 4: (sx, sy) = (ox, height - 1 - oy)
            case 5: (sx, sy) = (oy, ox)
            case 6: (sx, sy) = (oy, height - 1 - ox)
            case 7: (sx, sy) = (width - 1 - oy, height - 1 - ox)
            default: (sx, sy) = (width - 1 - oy, ox)  // 8
            }
            let s = (sy * width + sx) * c
            let d = (oy * outWidth + ox) * c
            for k in 0..<c { out[d + k] = src[s + k] }
          }
        }
      }
    }
  }
}
