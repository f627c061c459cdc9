// The server's HTTP API, as the page calls it (docs/WEB.md lists the endpoints).
//
// Every call returns the answer's JSON or throws an ApiError whose message is the
// server's own words (a Problem's detail, a refused move's reason). Nothing here logs a
// path: a seat's path holds its secret.

/** A refusal or failure, with the server's explanation as its message. */
export class ApiError extends Error {
  constructor(status, message, body = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }
}

function explain(status, body) {
  if (body && typeof body.reason === "string") return body.reason;
  if (body && typeof body.detail === "string") return body.detail;
  if (body && Array.isArray(body.detail)) {
    // FastAPI's list of what does not fit the model (422)
    return body.detail.map((item) => item.msg ?? String(item)).join("; ");
  }
  if (status === 0) return "the server cannot be reached: check the connection and try again";
  return `the server answered ${status} without saying why`;
}

async function call(method, path, body = undefined) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, explain(0, null));
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) throw new ApiError(response.status, explain(response.status, data), data);
  return data;
}

const seatPath = (secret) => `/api/seat/${encodeURIComponent(secret)}`;

/** An endpoint the server may not have yet answers 404 "Not Found" or 405. */
export function isMissingEndpoint(error) {
  return (
    error instanceof ApiError &&
    (error.status === 405 || (error.status === 404 && error.message === "Not Found"))
  );
}

export const api = {
  createGame: (request) => call("POST", "/api/games", request),
  state: (secret) => call("GET", seatPath(secret)),
  move: (secret, move) => call("POST", `${seatPath(secret)}/move`, { move }),
  hint: (secret) => call("GET", `${seatPath(secret)}/hint`),
  why: (secret, move) => call("POST", `${seatPath(secret)}/why`, { move }),
  handOver: (secret) => call("POST", `${seatPath(secret)}/hand-over`),
  reclaim: (secret) => call("POST", `${seatPath(secret)}/reclaim`),
  name: (secret, name) => call("POST", `${seatPath(secret)}/name`, { name }),
  rematch: (secret) => call("POST", `${seatPath(secret)}/rematch`),
  gamesOffered: () => call("GET", "/api/games-offered"),
  seatsStatus: (secrets) => call("POST", "/api/seats/status", { secrets }),
  openTables: () => call("GET", "/api/open-tables"),
  openTable: (request) => call("POST", "/api/open-tables", request),
  sitDown: (table, name, seats = []) => call("POST", `/api/open-tables/${encodeURIComponent(table)}/sit`, { name, seats }),
  recordPath: (secret) => `${seatPath(secret)}/record`,
  fullRecordPath: (gameId) => `/api/games/${gameId}/record`,
  verify: (gameId, hand) => call("GET", `/api/games/${gameId}/hands/${hand}/verify`),
  socketUrl: (secret) => {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${window.location.host}/ws/seat/${encodeURIComponent(secret)}`;
  },
};
