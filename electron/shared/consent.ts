/**
 * The consent a visitor gives before any photo is taken. The version is recorded with each
 * enrollment (audit entry: version, time, the account that collected it); change the version
 * whenever the text changes. Removing a visitor is the withdrawal of this consent.
 */
export const CONSENT = Object.freeze({
  version: '2026-11-2',
  // Written to the visitor, who usually enrolls alone; staff who enroll someone show them this.
  text: 'The kiosk will keep a template of your face, used only to recognise you at this site. You can ask staff to remove it at any time.',
})
