import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react'
import { LIGHT_RGB, type LightColour } from '@shared/liveness'

/**
 * The screen-light check's light: everything around the camera picture in the colour the run says
 * for each paint (asked on each animation frame: the run notes when each colour went on screen and
 * keeps it there its drawn time), the picture itself left clear so the person still sees their face.
 * The colour is also on `data-colour`, for whoever checks what the screen showed.
 */
export function ScreenLight({ paint, around, prompt }: { paint: (now: number) => LightColour | null; around: RefObject<HTMLElement | null>; prompt: string }) {
  const ring = useRef<HTMLDivElement>(null)
  const read = useRef(paint)
  useLayoutEffect(() => {
    read.current = paint
  })
  useEffect(() => {
    let frame = 0
    const draw = () => {
      const element = ring.current
      const box = around.current?.getBoundingClientRect()
      if (element && box) {
        const colour = read.current(performance.now())
        element.dataset.colour = colour ?? ''
        element.style.setProperty('--light', colour ? `rgb(${LIGHT_RGB[colour].join(' ')})` : 'transparent')
        element.style.left = `${box.left}px`
        element.style.top = `${box.top}px`
        element.style.width = `${box.width}px`
        element.style.height = `${box.height}px`
      }
      frame = requestAnimationFrame(draw)
    }
    frame = requestAnimationFrame(draw)
    return () => cancelAnimationFrame(frame)
  }, [around])
  return (
    <div ref={ring} className="screen-light" data-testid="screen-light">
      <p className="screen-light-prompt">{prompt}</p>
    </div>
  )
}
