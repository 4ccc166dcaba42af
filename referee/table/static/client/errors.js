// The errors the client throws: RefereeError (the API answered with a problem) and
// RefereeConnectionError (the API could not be reached, after the retries).

/**
 * The API answered with an error (any status that is not 2xx): the RFC 9457 problem body,
 * typed. `type` is the problem's slug ("illegal-action", "version-conflict", …; "about:blank"
 * for a body that was not problem+json, such as a proxy's error page).
 */
export class RefereeError extends Error {
  /**
   * @param {number} status the HTTP status
   * @param {Record<string, any>} problem the problem+json body
   */
  constructor(status, problem) {
    const title = problem.title ?? "error";
    super(problem.detail ? `${status} ${title}: ${problem.detail}` : `${status} ${title}`);
    this.name = "RefereeError";
    this.status = status;
    this.problem = problem;
    this.type = String(problem.type ?? "").split("/").pop();
    this.title = title;
    this.detail = problem.detail ?? "";
    /** The rules an illegal action breaks: [{rule, title?, code?, message, field?}]. */
    this.violations = Array.isArray(problem.violations) ? problem.violations : [];
    /** The input errors: [{field, message, rule?}]. */
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    /** 409 version-conflict: the match's version now (read again and choose again). */
    this.currentVersion = problem.current_version ?? null;
  }
}

/**
 * The service could not be reached (a lost connection, a timeout, the stream lost too many
 * times in a row) once the retries were spent. `cause` is the last underlying error.
 */
export class RefereeConnectionError extends Error {
  /** @param {string} message @param {unknown} [cause] */
  constructor(message, cause) {
    super(message);
    this.name = "RefereeConnectionError";
    this.cause = cause;
  }
}

/**
 * The problem body of an error answer (one is made up if the body is not a JSON object).
 * @param {{status: number, statusText: string, text: string}} answer
 * @returns {Record<string, any>}
 */
export function problemOf({ status, statusText, text }) {
  try {
    const body = JSON.parse(text);
    if (body && typeof body === "object" && !Array.isArray(body)) return body;
  } catch {
    // not JSON: made up below
  }
  return { type: "about:blank", title: statusText || "Error", status, detail: text.slice(0, 500) };
}
