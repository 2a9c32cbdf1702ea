/** Pixels (×3 channels) of the largest input whose int32 buffer a worker keeps: 1920×1080, ~25 MB. */
const MAX_REUSED_INPUT = 1920 * 1080 * 3

/**
 * tfjs has no uint8 tensors, so pixels are widened to int32 (4 bytes each) before the WASM backend
 * copies them into its own memory. A fresh array per image (12 MB at 1024×1024) made V8 run a full
 * mark-compact after every inference; one reused buffer per worker cuts that to about every third.
 * The returned view is only valid until the next call (a worker runs one image at a time).
 */
export function inputWidener(): (rgb: Uint8Array) => Int32Array {
  let input = new Int32Array(0)
  return (rgb) => {
    if (rgb.length > MAX_REUSED_INPUT) return Int32Array.from(rgb) // rare: do not keep a huge buffer
    if (input.length < rgb.length) input = new Int32Array(rgb.length)
    const view = input.length === rgb.length ? input : input.subarray(0, rgb.length)
    view.set(rgb)
    return view
  }
}
