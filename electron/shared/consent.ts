/**
 * The consent a visitor gives before any photo is taken. The version is recorded with each
 * enrollment (audit entry: version, time, the account that collected it); change the version
 * whenever the text changes. Removing a visitor is the withdrawal of this consent.
 */
export const CONSENT = Object.freeze({
  version: '2026-11-1',
  text:
    'The kiosk will store a face template for this visitor, used only to recognise them at this site. ' +
    'The visitor can ask staff to remove it at any time.',
})
