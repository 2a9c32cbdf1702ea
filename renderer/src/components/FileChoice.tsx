import type { InputHTMLAttributes, ReactNode } from 'react'

/**
 * A file input shown as a button with its own words. The browser's own control says "No file
 * chosen" once a chosen file has been taken (the input is emptied so the same file can be chosen
 * again), which contradicts the photo on screen; the input stays for keyboards and screen readers,
 * visually hidden, and its label is the button.
 */
export function FileChoice({ id, label, ...input }: InputHTMLAttributes<HTMLInputElement> & { id: string; label: ReactNode }) {
  return (
    <span className="file-choice">
      <input {...input} id={id} type="file" className="file-choice-input" />
      <label htmlFor={id} className="btn btn-secondary">
        {label}
      </label>
    </span>
  )
}
