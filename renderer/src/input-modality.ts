/**
 * Whether the person is using the keyboard: `data-keyboard` on <html> from a key press until the
 * next pointer press. A heading that focus is moved to (on load, after a change of screen) shows its
 * ring only then: Chromium counts focus moved by script with no input yet as :focus-visible, which
 * drew a ring on the first-run heading for a mouse user.
 */
export function followInputModality(root: HTMLElement = document.documentElement): void {
  addEventListener('keydown', (event) => {
    if (!event.metaKey && !event.altKey && !event.ctrlKey) root.dataset.keyboard = ''
  }, true)
  addEventListener('pointerdown', () => delete root.dataset.keyboard, true)
}
