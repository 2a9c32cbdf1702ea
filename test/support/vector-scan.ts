/**
 * True when `data` holds a run of `run` consecutive little-endian float32 values that look like a
 * face embedding (finite, 1e-5 ≤ |x| ≤ 1), at any byte alignment. In ciphertext each 4 bytes pass
 * by chance with p ≈ 0.07, so 64 in a row never happen (≈ 1e-74); a stored vector of 128 or 1024
 * dimensions is such a run from end to end.
 */
export function floatVectorRun(data: Buffer, run = 64): boolean {
  for (let align = 0; align < 4; align++) {
    let count = 0
    for (let at = align; at + 4 <= data.length; at += 4) {
      const x = Math.abs(data.readFloatLE(at))
      count = Number.isFinite(x) && x >= 1e-5 && x <= 1 ? count + 1 : 0
      if (count >= run) return true
    }
  }
  return false
}
