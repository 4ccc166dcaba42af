// One request to the API, with the client's retry rules (see RefereeClient).

import { RefereeConnectionError, RefereeError, problemOf } from "./errors.js";

/** The longest Retry-After (seconds) the client waits before retrying a 503. */
export const MAX_WAIT = 10;

/**
 * @typedef {object} CallOptions
 * @property {string | null} [token] sent as `Authorization: Bearer <token>`
 * @property {Record<string, string>} [headers]
 * @property {unknown} [json] the JSON body
 * @property {Record<string, string | number | undefined | null>} [query]
 * @property {boolean} [retry] send again after a lost connection, a timeout or a 503 (true)
 * @property {number} [timeout] milliseconds for this request (the client's timeout + extra)
 * @property {AbortSignal} [signal] the caller's: aborting it ends the call, never retried
 */

export class Transport {
  /**
   * @param {{baseUrl: string, fetch: typeof fetch, timeout: number, retries: number,
   *          language: string | null, sleep: (ms: number) => Promise<void>}} settings
   */
  constructor(settings) {
    Object.assign(this, settings);
  }

  /** The URL of `path` with `query` (undefined and null values left out). */
  url(path, query) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) params.set(name, String(value));
    }
    const text = params.toString();
    return `${this.baseUrl}${path}${text ? `?${text}` : ""}`;
  }

  /** The headers every request carries (the language), with `extra`. */
  headers(extra = {}, token = null) {
    const headers = { Accept: "application/json", ...extra };
    if (this.language) headers["Accept-Language"] = this.language;
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  /**
   * Send `method path` and decode the answer: the JSON (null for an empty body); a non-2xx
   * answer throws RefereeError; no answer after the retries throws RefereeConnectionError.
   * @param {string} method
   * @param {string} path
   * @param {CallOptions} [options]
   */
  async call(method, path, { token = null, headers = {}, json, query, retry = true,
    timeout = this.timeout, signal } = {}) {
    const init = { method, headers: this.headers(headers, token) };
    if (json !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(json);
    }
    const url = this.url(path, query);
    const attempts = 1 + (retry ? this.retries : 0);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      let response;
      try {
        response = await this.send(url, init, timeout, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        if (last) {
          throw new RefereeConnectionError(`${method} ${path}: no answer (${error?.message ?? error})`, error);
        }
        continue;
      }
      if (response.status === 503 && !last) { // store-unavailable: wait, then the same again
        await this.sleep(retryAfter(response.headers) * 1000);
        continue;
      }
      if (!response.ok) throw new RefereeError(response.status, problemOf(response));
      return response.text ? JSON.parse(response.text) : null;
    }
  }

  /**
   * One fetch, its body read whole, aborted after `timeout` ms (a server that stalls
   * mid-answer is lost too) or when `signal` aborts.
   * @returns {Promise<Answer>}
   */
  async send(url, init, timeout, signal) {
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort, { once: true });
    const timer = timeout ? setTimeout(() => controller.abort(new Error(`timed out after ${timeout} ms`)), timeout) : null;
    try {
      const response = await this.fetch(url, { ...init, signal: controller.signal });
      const text = await response.text();
      return { status: response.status, ok: response.ok, statusText: response.statusText,
        headers: response.headers, text };
    } finally {
      if (timer !== null) clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
  }
}

/**
 * @typedef {object} Answer an answer read whole
 * @property {number} status
 * @property {boolean} ok
 * @property {string} statusText
 * @property {Headers} headers
 * @property {string} text
 */

/**
 * Seconds to wait before retrying a 503: its Retry-After (1 if absent or not a number), at
 * most MAX_WAIT.
 * @param {Headers} headers
 */
export function retryAfter(headers) {
  const seconds = Number(headers.get("Retry-After") ?? 1);
  return Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), MAX_WAIT) : 1;
}
