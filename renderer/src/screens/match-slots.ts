import { useEffect, useRef, useState } from 'react'
import { readImageFile, type PickedImage } from './image-file'

export type Slot = 0 | 1

/** One slot of the face match: its photo, what was done to fit it, or why the last choice was refused. */
export interface SlotState {
  image: PickedImage | null
  /** "Photo was 4000×3000, resized to 1024×768 to fit." */
  note: string | null
  /** Why the last choice could not be used; the slot is then empty. */
  reason: string | null
  /** A chosen file is being read or fitted. */
  reading: boolean
}

const EMPTY: SlotState = { image: null, note: null, reason: null, reading: false }

/**
 * The two slots' state, kept here rather than in the slot components so that the camera step (which
 * replaces the slots on screen) leaves each slot as it was. A slot always shows the last choice made
 * in it: a refused file empties it and says why. `changed` runs whenever an image is replaced, for
 * the screen to drop a result or error that was about the previous pair.
 */
export function useMatchSlots(changed: () => void) {
  const [slots, setSlots] = useState<[SlotState, SlotState]>([EMPTY, EMPTY])
  // The latest choice per slot wins, even if an earlier, larger file finishes reading after it.
  const choices = useRef<[number, number]>([0, 0])

  const set = (slot: Slot, next: SlotState) => {
    setSlots((current) => (slot === 0 ? [next, current[1]] : [current[0], next]))
  }
  const replace = (slot: Slot, next: SlotState) => {
    choices.current[slot] += 1
    changed()
    set(slot, next)
  }

  useObjectUrlRelease(slots[0].image?.previewUrl)
  useObjectUrlRelease(slots[1].image?.previewUrl)

  return {
    slots,
    async chooseFile(slot: Slot, file: File) {
      const choice = ++choices.current[slot]
      changed()
      set(slot, { ...EMPTY, reading: true })
      const read = await readImageFile(file)
      if (choice !== choices.current[slot]) {
        if (read.ok) releaseObjectUrl(read.image.previewUrl)
        return
      }
      set(slot, read.ok ? { ...EMPTY, image: read.image, note: read.note } : { ...EMPTY, reason: read.reason })
    },
    takeCamera: (slot: Slot, image: PickedImage) => replace(slot, { ...EMPTY, image }),
    clear: (slot: Slot) => replace(slot, EMPTY),
  }
}

/** A preview's object URL is let go once the slot shows something else (the camera's are data: URLs). */
function useObjectUrlRelease(url: string | undefined) {
  useEffect(() => () => releaseObjectUrl(url), [url])
}

function releaseObjectUrl(url: string | undefined) {
  if (url?.startsWith('blob:')) URL.revokeObjectURL(url)
}
