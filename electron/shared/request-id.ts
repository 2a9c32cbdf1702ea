/** The header that carries a call's id from the kiosk through the site's haproxy to the engine, whose log names the call by it. */
export const REQUEST_ID_HEADER = 'x-request-id'
