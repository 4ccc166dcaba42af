// referee-client: the JavaScript client of the referee API. ES module, browser-safe (no
// Node built-ins), no runtime dependency: fetch, AbortController, TextDecoder.

export { RefereeClient } from "./client.js";
export { RefereeConnectionError, RefereeError } from "./errors.js";
export { RECONNECT_DELAYS } from "./follow.js";
export { newKey as newIdempotencyKey } from "./keys.js";
export { parseSSE } from "./sse.js";
export { MAX_WAIT } from "./transport.js";
