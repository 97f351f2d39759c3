// The service's refusals, and a web server's in front of it, in words a player acts on

export { apiError, gatewayError, OFFLINE };

// the server's message (its code kept for the console, not shown: a player acts on words)
async function apiError(response, remedies = {}) {
  let body = null;
  try { body = await response.json(); } catch (e) { body = null; }
  if (!body || !body.message) return gatewayError(response.status);
  console.info("mjscore API error", response.status, body.code);
  const remedy = remedies[body.code];
  return `${body.message}${/[.!?]$/.test(body.message) ? "" : "."}${remedy ? ` ${remedy}` : ""}`;
}

// an answer that is not mjscore's own (no JSON message): the web server in front of it (nginx,
// Caddy, a club's host) answered instead, and says which of its settings is in the way
function gatewayError(status) {
  if (status === 413) {
    return "the web server in front of mjscore refused the upload as too large (HTTP 413). Whoever runs it can "
      + "raise its upload limit to mjscore's own, 20 MB and the form round it (nginx: client_max_body_size 20736k); "
      + "a smaller copy of the picture may get through.";
  }
  if (status === 502 || status === 503) {
    return `mjscore is not answering behind its web server (HTTP ${status}): try again in a moment, or tell whoever runs it.`;
  }
  if (status === 504) {
    return "the web server in front of mjscore stopped waiting for the answer (HTTP 504): try again, or ask whoever "
      + "runs it to let it wait longer (nginx: proxy_read_timeout).";
  }
  return `the server refused it (HTTP ${status}).`;
}

const OFFLINE = "Could not reach the server: check the connection and try again.";
