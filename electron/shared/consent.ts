/**
 * The consent a visitor gives before any photo is taken. Its words are in each visitor language
 * (renderer/src/i18n/locales/*.json, key `consent.text`), all saying the same thing. The version
 * is recorded with each enrollment (audit entry: version, time, the account that collected it);
 * change it whenever the words change in any language. Removing a visitor is the withdrawal of
 * this consent.
 */
export const CONSENT = Object.freeze({
  version: '2026-11-2',
})
