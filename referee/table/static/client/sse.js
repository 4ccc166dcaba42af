// Server-Sent Events read from a fetch body: no EventSource needed (it cannot send headers,
// and React Native and Node have none), so the same code runs in browsers, Node and workers.

/**
 * The text of a byte stream (a fetch `response.body`), chunk by chunk, UTF-8 decoded. It ends
 * when the stream does, when `signal` aborts, or when a read waits longer than `idleMs` for a
 * byte (then `onIdle` is called first, e.g. to abort the fetch): the reader is cancelled, so
 * this works whether or not the fetch ties its body to its signal.
 * @param {ReadableStream<Uint8Array>} body
 * @param {{idleMs?: number, onIdle?: () => void, signal?: AbortSignal}} [options]
 * @returns {AsyncGenerator<string>}
 */
export async function* textOf(body, { idleMs = 0, onIdle, signal } = {}) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => { reader.cancel().catch(() => {}); };
  const idle = () => { onIdle?.(); cancel(); };
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    while (!signal?.aborted) {
      const timer = idleMs ? setTimeout(idle, idleMs) : null;
      let step;
      try {
        step = await reader.read();
      } finally {
        if (timer !== null) clearTimeout(timer);
      }
      if (step.done) break;
      yield decoder.decode(step.value, { stream: true });
    }
    const tail = decoder.decode();
    if (tail) yield tail;
  } finally {
    signal?.removeEventListener("abort", cancel);
    cancel();
  }
}

/**
 * The messages of a `text/event-stream` given as text chunks (split anywhere): `{event, id,
 * data}` with `data` decoded from JSON and `id` a number (null when the message has none).
 * Comments (heartbeats) and `retry:` are skipped; a message is dispatched at its blank line,
 * so a stream cut inside a message yields nothing of it. Lines end in LF, CRLF or CR.
 * @param {AsyncIterable<string> | Iterable<string>} chunks
 * @returns {AsyncGenerator<{event: string, id: number | null, data: any}>}
 */
export async function* parseSSE(chunks) {
  let buffer = "";
  let event = "message";
  let id = null;
  let data = [];
  for await (const chunk of chunks) {
    buffer += chunk;
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      if (buffer[end] === "\r" && end === buffer.length - 1) break; // a CR whose LF may follow
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
      if (line === "") {
        if (data.length) yield { event, id, data: JSON.parse(data.join("\n")) };
        event = "message";
        id = null;
        data = [];
        continue;
      }
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (name === "event") event = value;
      else if (name === "id") id = value === "" ? null : Number(value);
      else if (name === "data") data.push(value);
    }
  }
}
